package goboard

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// gtpEngine is a Go engine driven over the Go Text Protocol on its standard
// input and output (GTP version 2: a command is one line; a reply is "= "
// or "? " followed by text and ends with an empty line).
type gtpEngine struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
	log []string // commands sent since the last clear, to replay a failure
}

// findGNUGo returns the path of the gnugo binary: $GNUGO if set, else gnugo
// on PATH, else /usr/games/gnugo (where Debian's package puts it), or "".
func findGNUGo() string {
	if p := os.Getenv("GNUGO"); p != "" {
		return p
	}
	if p, err := exec.LookPath("gnugo"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/games/gnugo"); err == nil {
		return "/usr/games/gnugo"
	}
	return ""
}

// startGTP starts path with args and checks that it answers.
func startGTP(path string, args ...string) (*gtpEngine, error) {
	cmd := exec.Command(path, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	e := &gtpEngine{cmd: cmd, in: in, out: bufio.NewReader(out)}
	if _, err := e.send("protocol_version"); err != nil {
		e.close()
		return nil, err
	}
	return e, nil
}

// send sends one command and returns the text of a successful reply, or an
// error with the text of a failure reply ("? ...") or of a broken pipe.
func (e *gtpEngine) send(command string) (string, error) {
	e.log = append(e.log, command)
	if _, err := io.WriteString(e.in, command+"\n"); err != nil {
		return "", fmt.Errorf("gtp %q: %w", command, err)
	}
	var reply []string
	for {
		line, err := e.out.ReadString('\n')
		if err != nil {
			return "", fmt.Errorf("gtp %q: %w", command, err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if len(reply) == 0 {
				continue // blank lines before a reply
			}
			break
		}
		reply = append(reply, line)
	}
	text := strings.Join(reply, "\n")
	switch {
	case strings.HasPrefix(text, "="):
		return strings.TrimSpace(text[1:]), nil
	case strings.HasPrefix(text, "?"):
		return "", fmt.Errorf("gtp %q: %s", command, strings.TrimSpace(text[1:]))
	}
	return "", fmt.Errorf("gtp %q: malformed reply %q", command, text)
}

// close asks the engine to quit and waits for it, killing it after a second.
func (e *gtpEngine) close() error {
	_, _ = io.WriteString(e.in, "quit\n")
	_ = e.in.Close()
	done := make(chan error, 1)
	go func() { done <- e.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Second):
		_ = e.cmd.Process.Kill()
		return errors.New("gtp engine did not quit; killed")
	}
}
