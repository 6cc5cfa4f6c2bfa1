// Command gen writes the generated files of bench/catalog, which are not
// committed, into a directory, and prints the path of an overlay that
// lays them over the package:
//
//	go run ./bench/catalog/gen DIR
//
// Build with them under the tag catalog, as .ci/tsclient does:
//
//	overlay=$(go run ./bench/catalog/gen DIR)
//	go build -tags catalog -overlay "$overlay" ./bench/cmd/catalog
//
// The tests of bench/catalog need neither: their TestMain does the same.
package main

import (
	"fmt"
	"log"
	"os"

	"github.com/mcpgen/mcpgen/bench/catalog/internal/build"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("gen: ")
	if len(os.Args) != 2 {
		log.Fatal("usage: go run ./bench/catalog/gen DIR")
	}
	pkg, err := build.Dir()
	if err != nil {
		log.Fatal(err)
	}
	overlay, err := build.Overlay(pkg, os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(overlay)
}
