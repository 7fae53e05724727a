package proc

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// killTagged kills every live process that carries tag in its environment
// (ProgramEnv) or descends from pid or from one that does, and scans again
// until a scan finds none it may kill (a process may fork while it is
// killed), for at most about a second.
func killTagged(pid int, tag string) {
	self := os.Getpid()
	denied := map[int]bool{} // not ours to kill (a setuid program): not waited for
	for range 100 {
		left := 0
		for _, v := range tagged(pid, tag, self) {
			if denied[v] {
				continue
			}
			if err := syscall.Kill(v, syscall.SIGKILL); errors.Is(err, syscall.EPERM) {
				denied[v] = true
				continue
			}
			left++
		}
		if left == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond) // for the kills to land before the next scan
	}
}

// tagged returns the live processes (not zombies) that carry tag in their
// environment, or descend from root or from one that does, from /proc;
// never self.
func tagged(root int, tag string, self int) []int {
	live := map[int]bool{}
	children := map[int][]int{}
	roots := []int{root} // a zombie or gone: its children are found all the same
	want := []byte(ProgramEnv + "=")
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil || pid == self {
			continue
		}
		st, ok := readStat(d)
		if !ok || st.dead() {
			continue
		}
		live[pid] = true
		children[st.ppid] = append(children[st.ppid], pid)
		if carries(d, want, tag) {
			roots = append(roots, pid)
		}
	}
	seen := map[int]bool{}
	var out []int
	for len(roots) > 0 {
		p := roots[len(roots)-1]
		roots = roots[:len(roots)-1]
		if seen[p] || p == self {
			continue
		}
		seen[p] = true
		if live[p] {
			out = append(out, p)
		}
		roots = append(roots, children[p]...)
	}
	return out
}

// carries reports whether the process of /proc directory d has tag among
// the tags of want (ProgramEnv=) in its environment.
func carries(d string, want []byte, tag string) bool {
	env, err := os.ReadFile(d + "/environ")
	if err != nil {
		return false
	}
	for _, kv := range bytes.Split(env, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, want); ok {
			for _, t := range bytes.Fields(v) {
				if string(t) == tag {
					return true
				}
			}
		}
	}
	return false
}
