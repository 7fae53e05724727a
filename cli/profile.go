package cli

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// profileFlag is -cpuprofile FILE: a CPU profile of the command's work,
// for `go tool pprof`, so that a rule's author can see where a check of
// their rule spends its time.
type profileFlag struct{ path string }

// profileFlagOn defines -cpuprofile.
func profileFlagOn(fs *flagSet) *profileFlag {
	p := &profileFlag{}
	fs.StringVar(&p.path, "cpuprofile", "", "write a CPU profile to `FILE`, for go tool pprof")
	return p
}

// start begins the profile, if one was asked for, and returns the
// function that ends it and closes the file; its error is the file's.
func (p *profileFlag) start() (stop func() error, err error) {
	if p.path == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(p.path)
	if err != nil {
		return nil, usagef("-cpuprofile: %v", err)
	}
	// pprof drops the errors of its writes: w keeps them, so that a profile
	// lost to a full disk is an error.
	w := &stickyWriter{w: f}
	if err := pprof.StartCPUProfile(w); err != nil {
		f.Close()
		return nil, err
	}
	return func() error {
		pprof.StopCPUProfile()
		cerr := f.Close()
		if w.err != nil {
			return fmt.Errorf("-cpuprofile %s: %w", p.path, w.err)
		}
		return cerr
	}, nil
}

// withProfile runs work under the profile p asks for; an error closing
// the profile is returned when work succeeded.
func withProfile(p *profileFlag, work func() error) error {
	stop, err := p.start()
	if err != nil {
		return err
	}
	err = work()
	if serr := stop(); err == nil && serr != nil {
		return serr
	}
	return err
}
