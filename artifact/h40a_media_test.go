package artifact

import (
	"testing"

	"headroom/model"
)

// h40a: a transcoder's GPU memory lines, SQL Server's error 701 and Tdarr's worker exit,
// each alone in a paste, are named unread with what they prove; none is an OOM of this host.
// Wordings: FFmpeg libavcodec/nvenc.c (nvenc_print_error after nvEncOpenEncodeSessionEx),
// libavutil/cuda_check.h ("%s failed -> %s: %s"), libavutil/hwcontext_vaapi.c ("Failed to
// create surface: %d (%s)."), SQL Server sys.messages 701 (learn.microsoft.com
// MSSQLSERVER_701), Tdarr's log4js pattern "[%d] [%p] %c - %m".
func TestH40aMediaMemoryLinesUnread(t *testing.T) {
	for _, c := range []struct {
		text, why string
		lines     int
	}{
		{"[h264_nvenc @ 0x5581a8c0] OpenEncodeSessionEx failed: out of memory (10): (no details)\n", whyGPUEncoderMemory, 1},
		{"2022/12/08 14:32:09 [h264_nvenc @ 00000273a548f1c0] OpenEncodeSessionEx failed: out of memory (10): (no details)\n", whyGPUEncoderMemory, 1},
		{"[AVHWDeviceContext @ 0x25bfe376ac0] cu->cuMemAlloc(&data, size) failed -> CUDA_ERROR_OUT_OF_MEMORY: out of memory\n", whyGPUEncoderMemory, 1},
		{"[hevc_nvenc @ 0x55f1] dl_fn->cuda_dl->cuCtxCreate(&ctx->cu_context_internal, 0, cu_device) failed -> CUDA_ERROR_OUT_OF_MEMORY: out of memory\n", whyGPUEncoderMemory, 1},
		{"[h264_vaapi @ 0x5612] Failed to create surface: 2 (resource allocation failed).\n", whyGPUEncoderMemory, 1},
		{"2026-11-30 10:12:01.12 spid51      There is insufficient system memory in resource pool 'internal' to run this query.\n", whyMSSQLPoolMemory, 1},
		{"System.Data.SqlClient.SqlError: There is insufficient system memory in resource pool 'default' to run this query.\n", whyMSSQLPoolMemory, 1},
		{"[2026-11-30T10:12:01.123] [ERROR] Tdarr_Node - Worker \"tdarr-node-1\" exited with code 137\n", exited137Why, 1},
	} {
		tl := ParseString(c.text, "p", Options{})
		if len(tl.Unparsed) != 1 || tl.Unparsed[0].Why != c.why || tl.Unparsed[0].FirstLine != 1 || tl.Unparsed[0].LastLine != c.lines {
			t.Errorf("%q: unread %+v, want line 1 for %q", c.text, tl.Unparsed, c.why)
		}
		if len(tl.RuntimeOOMs) != 0 || statedRate(t, c.text, model.RateStatedOOM) != 0 {
			t.Errorf("%q: an OOM read from a device's or a program's memory line", c.text)
		}
		checkAccount(t, tl)
	}
	// Counter-cases: a question, advice, the docs' explanation, another program's words.
	for _, text := range []string{
		"What does CUDA_ERROR_OUT_OF_MEMORY mean when NVENC starts?\n",
		"NVENC says OpenEncodeSessionEx failed: out of memory (10) when too many sessions run, see the docs.\n",
		"Set max server memory to 4 GB if you see 'There is insufficient system memory in resource pool' errors?\n",
		"Error 701 means there is insufficient system memory in resource pool to run the query.\n",
		"torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB\n",
		"[2026-11-30T10:12:01.123] [ERROR] xrdp_mm_process_login_response: login failed\n",
	} {
		for _, u := range ParseString(text, "p", Options{}).Unparsed {
			if u.Why == whyGPUEncoderMemory || u.Why == whyMSSQLPoolMemory || u.Why == whyTdarrLine {
				t.Errorf("%q: named %+v", text, u)
			}
		}
	}
}
