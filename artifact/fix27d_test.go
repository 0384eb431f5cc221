package artifact

import (
	"strings"
	"testing"
)

// fix27d: InnoDB's pre-5.6 buffer-pool failure ("InnoDB: Fatal error: cannot allocate memory
// for the buffer pool", buf0buf.c) is the program's own allocation refused, named as such and
// never a kernel OOM; a sentence that only talks about the error stays prose.
func TestFix27dInnoDBOldBufferPool(t *testing.T) {
	h12aNamed(t, "141130 02:12:13 InnoDB: Fatal error: cannot allocate memory for the buffer pool\n",
		map[int]string{1: "InnoDB (MySQL 5.5"})
	h12aNamed(t, "Fatal error: cannot allocate memory for the buffer pool\n",
		map[int]string{1: "buf0buf.c"})
	// Another program's line with the same first words is not InnoDB's.
	tl := ParseString("Fatal error: cannot allocate memory for the render cache\n", "t", Options{})
	for _, u := range tl.Unparsed {
		if strings.Contains(u.Why, "InnoDB") {
			t.Errorf("another program's line named as InnoDB's: %+v", u)
		}
	}
}
