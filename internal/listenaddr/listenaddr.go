// Package listenaddr reads the address of a -http flag as the module's
// programs do (mcp.Main's -http, the guide's go run ./docs): a bare port
// listens on the loopback address only.
package listenaddr

import "net"

// Resolve returns the address to listen on for addr: a bare port
// (":8080") listens on the loopback address 127.0.0.1 only; every
// interface is used only when written out, as "0.0.0.0:8080" or
// "[::]:8080".
func Resolve(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", err
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}
