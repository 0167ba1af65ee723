package msgs

import "fmt"

const prefix = "msgs: "

// errFull says the shelf is full.
const errFull = prefix + "the shelf is full"

func describe(n int) string { return fmt.Sprintf("%d books, at most %d", n, 3) }
