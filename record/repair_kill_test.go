package record

import (
	"os"
	"syscall"
	"testing"
)

func init() {
	// kill:STEP: the child kills itself with SIGKILL right after that step of the repair.
	repairChildModes["kill"] = func(at string) {
		repairStep = func(s string) {
			if s == at {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
			}
		}
	}
}

// SIGKILL after each step of a repair: before the rename the old archive is whole, after
// it the repaired one is; either way every complete line is there.
func TestRepairKilledAtEveryStep(t *testing.T) {
	for _, at := range []string{"copied", "written", "synced", "renamed"} {
		t.Run(at, func(t *testing.T) {
			path := tornArchive(t)
			ee := runRepairChild(t, path, "kill:"+at)
			if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
				t.Fatalf("child did not die by SIGKILL at %s: %v", at, ee)
			}
			checkRepairSurvived(t, path)
		})
	}
}
