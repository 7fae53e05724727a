package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/mctscheck/mctscheck/internal/version"
)

const versionUsage = `Usage: mctscheck version [-json]

Version prints the semantic version of the mctscheck module the command
was built from, the module as the build saw it (its path, and its version
or "(devel)" for a build from a clone), the commit and its time when the
build recorded them (a build from a clone records them; go run and go test
do not), and the Go version. In a command of one's own, built with cli.Main,
it prints that module's path and version first, then the mctscheck
module's it uses.

Examples:

  mctscheck version
  mctscheck version -json
`

// versionDoc is the JSON document of version.
type versionDoc struct {
	// Version is the mctscheck module's semantic version, as its source
	// states it.
	Version string `json:"version"`
	// Main is the module of the command's main package; Mctscheck is the
	// mctscheck module, the same as Main for mctscheck itself.
	Main      moduleDoc `json:"main"`
	Mctscheck moduleDoc `json:"mctscheck"`
	// Revision, Time and Modified are the commit the command was built
	// from, when the build recorded it (vcs.revision, vcs.time, vcs.modified).
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
}

// moduleDoc is a module's path and version, "(devel)" when built from a
// working tree, and the directory of a replace, if any.
type moduleDoc struct {
	Path    string `json:"path"`
	Version string `json:"version"`
	Replace string `json:"replace,omitempty"`
}

// mctscheckModule is this module's path.
const mctscheckModule = "github.com/mctscheck/mctscheck"

func cmdVersion(e *env, args []string) error {
	fs := newFlagSet("version", versionUsage)
	asJSON := fs.Bool("json", false, "print one JSON document")
	if err := fs.parse(e, args); err != nil {
		return err
	}
	doc := buildVersion()
	if *asJSON {
		return writeJSON(e.stdout, doc)
	}
	if doc.Mctscheck.Path == doc.Main.Path {
		fmt.Fprintf(e.stdout, "%s %s\n", e.tool.name(), doc.Version)
		fmt.Fprintf(e.stdout, "module   %s\n", doc.Main.describe())
	} else {
		fmt.Fprintf(e.stdout, "%s %s\n", e.tool.name(), doc.Main.describe())
		fmt.Fprintf(e.stdout, "mctscheck %s (module %s)\n", doc.Version, doc.Mctscheck.describe())
	}
	if doc.Revision != "" {
		mod := ""
		if doc.Modified {
			mod = " (with uncommitted changes)"
		}
		fmt.Fprintf(e.stdout, "commit   %s %s%s\n", doc.Revision, doc.Time, mod)
	}
	fmt.Fprintf(e.stdout, "go       %s\n", doc.Go)
	return nil
}

// describe is a module in one line: path, version and replacement.
func (m moduleDoc) describe() string {
	s := m.Path + " " + m.Version
	if m.Replace != "" {
		s += " => " + m.Replace
	}
	return s
}

// buildVersion reads the build information of the running binary.
func buildVersion() versionDoc {
	doc := versionDoc{Version: version.Module, Go: runtime.Version()}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		doc.Main = moduleDoc{Path: "unknown", Version: "(no build information)"}
		doc.Mctscheck = doc.Main
		return doc
	}
	doc.Go = info.GoVersion
	doc.Main = moduleOf(&info.Main)
	doc.Mctscheck = doc.Main
	for _, d := range info.Deps {
		if d.Path == mctscheckModule {
			doc.Mctscheck = moduleOf(d)
		}
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			doc.Revision = s.Value
		case "vcs.time":
			doc.Time = s.Value
		case "vcs.modified":
			doc.Modified = s.Value == "true"
		}
	}
	return doc
}

// moduleOf describes m, following its replace.
func moduleOf(m *debug.Module) moduleDoc {
	d := moduleDoc{Path: m.Path, Version: m.Version}
	if d.Version == "" {
		d.Version = "(devel)"
	}
	if r := m.Replace; r != nil {
		d.Replace = r.Path
		if r.Version != "" && r.Version != "(devel)" { // a directory has no version
			d.Replace += " " + r.Version
		}
	}
	return d
}
