package goboard

// GTPConn is a connection to a GTP engine. It is gtp.Client, which this
// package's own tests cannot import (package gtp imports goboard): the
// external test file gtpclient_test.go plugs it in through StartGTP and
// FindGNUGo.
type GTPConn interface {
	Send(command string) (string, error)
	Close() error
}

// StartGTP starts an engine (gtp.Start); FindGNUGo finds GNU Go
// (gtp.FindGNUGo). gtpclient_test.go sets both.
var (
	StartGTP  func(path string, args ...string) (GTPConn, error)
	FindGNUGo func() string
)

// gtpEngine is a Go engine driven over GTP that remembers the commands
// sent since the last clear of log, to replay a failure.
type gtpEngine struct {
	GTPConn
	log []string
}

// startGTP starts path with args and checks that it answers.
func startGTP(path string, args ...string) (*gtpEngine, error) {
	c, err := StartGTP(path, args...)
	if err != nil {
		return nil, err
	}
	e := &gtpEngine{GTPConn: c}
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
