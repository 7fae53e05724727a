package goboard

import (
	"github.com/mctscheck/mctscheck/gtp"
)

// gtpEngine is a Go engine driven over GTP (gtp.Client) that remembers the
// commands sent since the last clear of log, to replay a failure.
type gtpEngine struct {
	*gtp.Client
	log []string
}

// startGTP starts path with args and checks that it answers.
func startGTP(path string, args ...string) (*gtpEngine, error) {
	c, err := gtp.Start(nil, path, args...)
	if err != nil {
		return nil, err
	}
	e := &gtpEngine{Client: c}
	if _, err := e.send("protocol_version"); err != nil {
		e.close()
		return nil, err
	}
	return e, nil
}

// send sends one command, logged, and returns the text of a successful
// reply, or an error with the text of a failure reply or of a broken pipe.
func (e *gtpEngine) send(command string) (string, error) {
	e.log = append(e.log, command)
	return e.Send(command)
}

// close ends the engine.
func (e *gtpEngine) close() error { return e.Close() }
