package input

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// StdinWait is how long doctor waits for the first byte of a pipe on standard input before it
// takes the pipe for an idle one (ssh without -n, a supervisor's open pipe) and diagnoses
// the host live. `doctor -` waits for as long as the text takes.
const StdinWait = 2 * time.Second

// StdinText decides whether doctor without FILE, --from or --root reads its standard input
// as the text (issue 27: `doctor < file` and `cat file | headroom doctor` silently diagnosed
// the live host):
//   - a terminal, /dev/null or any other device, a closed or unreadable stdin: live (CI and
//     systemd run commands with stdin on /dev/null);
//   - a regular file: the text when it is not empty;
//   - a pipe or a socket: the text when a first byte arrives within wait; an empty pipe
//     (closed at once) or one silent for wait is live, and note says so.
//
// r then reads the whole input, the bytes read to decide included. An in-process reader that
// is not a file (tests) is never taken for the text.
func StdinText(in io.Reader, wait time.Duration) (r io.Reader, ok bool, note string) {
	f, isFile := in.(*os.File)
	if !isFile || f == nil {
		return in, false, ""
	}
	st, err := f.Stat()
	if err != nil {
		return in, false, ""
	}
	switch m := st.Mode(); {
	case m.IsRegular():
		return in, st.Size() > 0, ""
	case m&(os.ModeNamedPipe|os.ModeSocket) == 0:
		return in, false, ""
	}
	fds := []unix.PollFd{{Fd: int32(f.Fd()), Events: unix.POLLIN}}
	deadline := time.Now().Add(wait)
	for {
		ms := int(time.Until(deadline) / time.Millisecond)
		if ms < 0 {
			ms = 0
		}
		n, err := unix.Poll(fds, ms)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return in, false, ""
		}
		if n == 0 {
			return in, false, fmt.Sprintf("headroom doctor: standard input is a pipe with nothing in it after %v: diagnosing this host live (doctor - waits for the text)", wait)
		}
		break
	}
	buf := make([]byte, 64<<10)
	n, err := f.Read(buf)
	if n == 0 {
		if err != nil && err != io.EOF {
			return in, false, ""
		}
		return in, false, "" // an empty pipe: nothing was given
	}
	return io.MultiReader(bytes.NewReader(buf[:n]), f), true, ""
}
