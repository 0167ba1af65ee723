package jsonwire

// What the tests of package jsonwire_test use. They read the pinned lines
// with internal/exchange, which imports internal/lockstep, which imports
// this package: a test of this package itself cannot import it.
var (
	EdgeLines        = edgeLines
	CheckScanMessage = checkScanMessage
	PlainLine        = plainLine
)
