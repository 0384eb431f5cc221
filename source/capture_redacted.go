package source

import (
	"bytes"
	"io"
	"os"
	"path/filepath"

	"github.com/rogpeppe/go-internal/txtar"

	"headroom/kernel"
)

// CaptureRedacted is Capture with addresses, host, interface, user and task names replaced
// by pseudonyms (Redact), the user names read from dir's etc/passwd (dir: / or the
// directory captured), so the capture can go to a public ticket.
func CaptureRedacted(root kernel.Root, dir string, w io.Writer) (missing []string, red Redaction, err error) {
	var buf bytes.Buffer
	if missing, err = Capture(root, &buf); err != nil {
		return missing, red, err
	}
	a := txtar.Parse(buf.Bytes())
	passwd, _ := os.ReadFile(filepath.Join(dir, "etc/passwd"))
	red = Redact(a, RedactOptions{Users: PasswdUsers(passwd)})
	_, err = w.Write(txtar.Format(a))
	return missing, red, err
}
