package main

import (
	"os"

	"github.com/mctscheck/mctscheck/cli"
)

func main() {
	os.Exit(cli.Mctscheck(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
