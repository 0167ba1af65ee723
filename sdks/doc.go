// Package sdks holds nothing but the go:generate lines that refresh the
// pins of the Bookshops written with other Go SDKs, each in a module of its
// own below this folder, so that the guide's module does not depend on them.
package sdks
