package main

import "fmt"

// The shelf fills up.
func Example_full() {
	s := &shelf{}
	for range 4 {
		fmt.Println(s.add("Dune"))
	}
	// Output:
	// <nil>
	// <nil>
	// <nil>
	// the shelf is full
}

func Example_unchecked() {
	fmt.Println("nobody checks this")
}
