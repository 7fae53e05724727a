// Package version is the one home of the mctscheck module's semantic
// version, which mctscheck version and the GTP engine's version reply
// print.
//
// The module follows semantic versioning (https://semver.org): while the
// major version is 0 its API may change between minor versions; a patch
// version changes no API. A release sets Module and tags that commit with
// the same name (git tag v0.1.0), which is what the Go module proxy reads.
package version

// Module is the semantic version of the mctscheck module this source is.
const Module = "v0.1.0"
