package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"headroom/artifact"
)

// grepPattern is what both sides find: the first line of every allocation failure report.
const grepPattern = "page allocation failure"

// benchParse compares artifact.Parse with grep -c on the same generated syslog file.
//
// Both sides are whole processes (headroom's is this program in its parse mode: read the
// file, artifact.Parse, count the reports), measured by wait4's rusage: start-up, reading
// the file from the page cache and the work itself. grep runs with LC_ALL=C. Throughput is
// the file's size in MB (10^6 bytes) over headroom's CPU time.
func benchParse(c *config) result {
	const what = "artifact parse of a generated syslog, CPU"
	peerName := "grep -c"
	grep, err := exec.LookPath("grep")
	if err != nil {
		return naResult(what, peerName, "grep is not installed", parseTargets...)
	}
	path := filepath.Join(c.tmp, "syslog")
	if err := generate(path, c.parseBytes); err != nil {
		return naResult(what, peerName, err.Error(), parseTargets...)
	}
	size := float64(c.parseBytes)
	var parseNS, grepNS, parseOnly dist
	var grepCount, parseCount string
	grepOnce := func() error {
		cmd := exec.Command(grep, "-c", grepPattern, path)
		cmd.Env = append(os.Environ(), "LC_ALL=C")
		out, err := runChild(cmd)
		if err != nil {
			return err
		}
		grepCount = strings.TrimSpace(string(out))
		grepNS = append(grepNS, float64(rusageCPU(cmd.ProcessState)))
		return nil
	}
	parseOnce := func() error {
		cmd, err := childCmd("parse", path)
		if err != nil {
			return err
		}
		out, err := runChild(cmd)
		if err != nil {
			return err
		}
		kv := keyValues(out)
		parseCount = kv["failures"]
		if v, err := kvFloat(kv, "parse_cpu_ns"); err == nil {
			parseOnly = append(parseOnly, v)
		}
		parseNS = append(parseNS, float64(rusageCPU(cmd.ProcessState)))
		return nil
	}
	// One grep first brings every page of the file into the page cache for both sides.
	if err := grepOnce(); err != nil {
		return naResult(what, peerName, err.Error(), parseTargets...)
	}
	grepNS = grepNS[:0]
	runs := max(c.runs/2, 3)
	for i := range runs {
		c.logf("parse run %d/%d", i+1, runs)
		pair := [2]func() error{parseOnce, grepOnce}
		if i%2 == 1 {
			pair[0], pair[1] = pair[1], pair[0]
		}
		for _, f := range pair {
			if err := f(); err != nil {
				return naResult(what, peerName, err.Error(), parseTargets...)
			}
		}
	}
	mbps := dist{}
	for _, ns := range parseNS {
		mbps = append(mbps, size/1e6/(ns/1e9))
	}
	ratio := pairedRatios(parseNS, grepNS)
	note := fmt.Sprintf("%.0f MB file, %d runs; parse alone, in process (file read and parse, no start-up) %s", size/1e6, runs, fmtDist(parseOnly))
	if grepCount != parseCount {
		note += fmt.Sprintf("; COUNTS DIFFER: grep %s, headroom %s", grepCount, parseCount)
	} else {
		note += fmt.Sprintf("; both count %s reports", grepCount)
	}
	rows := []row{
		{
			what:     what,
			headroom: fmtDist(parseNS),
			peer:     peerName + ": " + fmtDist(grepNS),
			ratio:    fmtRatio(ratio.median()),
			note:     note,
		},
		{
			what:     "  artifact parse throughput",
			headroom: fmtDistUnit(mbps, "%.0f MB/s"),
			peer:     fmt.Sprintf("grep -c: %.0f MB/s", size/1e6/(grepNS.median()/1e9)),
			ratio:    "",
			note:     "file size over whole-process CPU time",
		},
	}
	return result{rows: rows, summary: map[string]string{
		"parse":      fmt.Sprintf("%.0fMB/s", mbps.median()),
		"parse/grep": fmt.Sprintf("%.1fx", ratio.median()),
	}, targets: []string{
		target(mbps.median() >= 50, "artifact parsing ≥ 50 MB/s: %.0f MB/s", mbps.median()),
		target(ratio.median() <= 6, "artifact parsing within 6 × grep -c (issue 33; goal 3×): %.1fx", ratio.median()),
	}}
}

// generate writes the syslog once per run (artifact.GenerateSyslog, seed 1).
func generate(path string, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := artifact.GenerateSyslog(w, size, 1); err != nil {
		f.Close()
		return fmt.Errorf("generating the syslog: %w", err)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// benchDoctor times `headroom doctor` on this host, less its sampling window: --duration 1s
// --interval 1s takes two samples one second apart (rates need two), so the wall time less
// one second is everything doctor does besides waiting. Its CPU time comes from wait4.
func benchDoctor(c *config) result {
	const what = "doctor end to end, wall time less the 1 s window"
	bin, err := c.buildHeadroom()
	if err != nil {
		return result{rows: []row{na(what, "", err.Error())}}
	}
	var wall, cpu dist
	for i := range c.doctorRuns {
		c.logf("doctor run %d/%d", i+1, c.doctorRuns)
		cmd := exec.Command(bin, "doctor", "--duration", "1s", "--interval", "1s", "--format", "json")
		t0 := time.Now()
		_, err := runChild(cmd)
		el := time.Since(t0)
		if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() > 2 || cmd.ProcessState.ExitCode() < 0 {
			return result{rows: []row{na(what, "", fmt.Sprintf("headroom doctor failed: %v", err))}}
		}
		wall = append(wall, float64(el-time.Second))
		cpu = append(cpu, float64(rusageCPU(cmd.ProcessState)))
	}
	return result{rows: []row{{
		what:     what,
		headroom: fmtDist(wall),
		peer:     "",
		ratio:    "",
		note:     fmt.Sprintf("CPU %s; %d runs of doctor --duration 1s --format json (two samples with sockets and ethtool, host facts, kernel log, rules, JSON report)", fmtDist(cpu), c.doctorRuns),
	}}}
}

// parseTargets are the targets this section checks, for when it cannot measure.
var parseTargets = []string{"artifact parsing ≥ 50 MB/s", "artifact parsing within 6 × grep -c (issue 33; goal 3×)"}
