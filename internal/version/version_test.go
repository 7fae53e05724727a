package version

import (
	"regexp"
	"testing"
)

// TestModuleIsSemver: Module is a semantic version as Go modules write
// them: v, then major.minor.patch without leading zeros, and an optional
// pre-release.
func TestModuleIsSemver(t *testing.T) {
	semver := regexp.MustCompile(`^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$`)
	if !semver.MatchString(Module) {
		t.Errorf("Module = %q, not a semantic version", Module)
	}
}
