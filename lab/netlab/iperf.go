package netlab

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"headroom/kernel"
)

// Iperf3Result is what the cross-check keeps of an iperf3 client run.
type Iperf3Result struct {
	ReceivedBitsPerSec float64 // end.sum_received.bits_per_second
	Retransmits        uint64  // end.sum_sent.retransmits
}

// Iperf3 runs the Debian iperf3 binary across the lab (server in receiver's namespace, client
// in sender's, both through `ip netns exec`), sending for omit+measure and reporting the
// receiver-side rate over the last measure seconds (iperf3 -O drops the first omit seconds
// from its sums, as RunBulk's warm-up does). It returns kernel.ErrNotSupported, wrapped,
// when iperf3 or ip is not installed.
func Iperf3(ctx context.Context, sender, receiver *Host, dst netip.Addr, streams int, omit, measure time.Duration) (*Iperf3Result, error) {
	for _, bin := range []string{"iperf3", "ip"} {
		if _, err := exec.LookPath(bin); err != nil {
			return nil, fmt.Errorf("lab: %s not installed (Debian package %s): %w", bin, map[string]string{"iperf3": "iperf3", "ip": "iproute2"}[bin], kernel.ErrNotSupported)
		}
	}
	// iperf3 inherits the nice value of the thread that forks it.
	defer RaisePriority()()
	const port = "5201"
	srv := exec.CommandContext(ctx, "ip", "netns", "exec", receiver.Netns(),
		"iperf3", "--server", "--one-off", "--bind", dst.String(), "--port", port, "--forceflush")
	out, err := srv.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var srvErr bytes.Buffer
	srv.Stderr = &srvErr
	if err := srv.Start(); err != nil {
		return nil, fmt.Errorf("lab: start iperf3 server: %w", err)
	}
	defer func() {
		srv.Process.Kill()
		srv.Wait()
	}()
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "Server listening") {
				ready <- nil
				for sc.Scan() {
				}
				return
			}
		}
		ready <- fmt.Errorf("lab: iperf3 server exited before listening: %s", strings.TrimSpace(srvErr.String()))
	}()
	select {
	case err := <-ready:
		if err != nil {
			return nil, err
		}
	case <-time.After(10 * time.Second):
		return nil, errors.New("lab: iperf3 server not listening after 10s")
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	secs := func(d time.Duration) string { return strconv.Itoa(int(d.Round(time.Second) / time.Second)) }
	cli := exec.CommandContext(ctx, "ip", "netns", "exec", sender.Netns(),
		"iperf3", "--client", dst.String(), "--port", port, "--json",
		"--time", secs(measure), "--omit", secs(omit), "--parallel", strconv.Itoa(streams))
	var cliErr bytes.Buffer
	cli.Stderr = &cliErr
	b, err := cli.Output()
	if err != nil {
		return nil, fmt.Errorf("lab: iperf3 client: %w: %s %s", err, strings.TrimSpace(cliErr.String()), firstLine(b))
	}
	return parseIperf3JSON(b)
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	return s
}

// parseIperf3JSON reads the parts of `iperf3 --json` output the cross-check needs. A run
// that failed carries an "error" string instead of sums.
func parseIperf3JSON(b []byte) (*Iperf3Result, error) {
	var doc struct {
		Error string `json:"error"`
		End   struct {
			SumSent *struct {
				Retransmits uint64 `json:"retransmits"`
			} `json:"sum_sent"`
			SumReceived *struct {
				BitsPerSecond float64 `json:"bits_per_second"`
			} `json:"sum_received"`
		} `json:"end"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("lab: iperf3 JSON: %w", err)
	}
	if doc.Error != "" {
		return nil, fmt.Errorf("lab: iperf3: %s", doc.Error)
	}
	if doc.End.SumReceived == nil {
		return nil, errors.New("lab: iperf3 JSON: no end.sum_received")
	}
	r := &Iperf3Result{ReceivedBitsPerSec: doc.End.SumReceived.BitsPerSecond}
	if doc.End.SumSent != nil {
		r.Retransmits = doc.End.SumSent.Retransmits
	}
	return r, nil
}
