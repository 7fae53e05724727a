package gtp

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

// Client talks to a Go engine over the Go Text Protocol (version 2): a
// command is one line; a reply starts with "=" (success) or "?" (failure),
// may span lines and ends with an empty line.
type Client struct {
	w   io.Writer
	r   *bufio.Reader
	cmd *exec.Cmd // when the client started the engine
	in  io.Closer
}

// NewClient returns a client that writes commands to w and reads
// replies from r: the pipes of an engine, or of a GTP session run in the
// same process.
func NewClient(r io.Reader, w io.Writer) *Client {
	return &Client{w: w, r: bufio.NewReader(r)}
}

// Start starts the engine command name with args and returns a client
// for it. Its standard error goes to stderr (nil: discarded).
func Start(stderr io.Writer, name string, args ...string) (*Client, error) {
	cmd := exec.Command(name, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := NewClient(out, in)
	c.cmd, c.in = cmd, in
	return c, nil
}

// Error is a failure reply ("? message") to a command.
type Error struct {
	Command, Message string
}

func (e *Error) Error() string { return fmt.Sprintf("gtp %q: %s", e.Command, e.Message) }

// Send sends one command and returns the text of a success reply (without
// "=" and the id), a *Error for a failure reply, or the error of a
// broken pipe or a malformed reply.
func (c *Client) Send(command string) (string, error) {
	if _, err := io.WriteString(c.w, command+"\n"); err != nil {
		return "", fmt.Errorf("gtp %q: %w", command, err)
	}
	var reply []string
	for {
		line, err := c.r.ReadString('\n')
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
		if len(reply) == 0 && line[0] != '=' && line[0] != '?' {
			// Not a reply: say so now rather than wait for a blank line
			// that a program which does not speak GTP may never write.
			return "", fmt.Errorf("gtp %q: malformed reply %q", command, line)
		}
		reply = append(reply, line)
	}
	text := strings.Join(reply, "\n")
	if text[0] == '?' {
		return "", &Error{command, strings.TrimSpace(strings.TrimLeft(text[1:], "0123456789"))}
	}
	return strings.TrimSpace(strings.TrimLeft(text[1:], "0123456789")), nil
}

// Close sends quit and, for an engine the client started, waits for it to
// exit, killing it after two seconds.
func (c *Client) Close() error {
	_, qerr := c.Send("quit")
	if c.cmd == nil {
		return qerr
	}
	_ = c.in.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(2 * time.Second):
		_ = c.cmd.Process.Kill()
		return errors.New("gtp engine did not quit; killed")
	}
}

// FindGNUGo returns the path of the gnugo binary: $GNUGO if set, else gnugo
// on PATH, else /usr/games/gnugo (where Debian's package puts it), or "" if
// there is none.
func FindGNUGo() string {
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
