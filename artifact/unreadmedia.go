package artifact

import "strings"

// h40a: a media transcoder's and a database's own memory lines, in a text where nothing else
// was read. Each is named unread with what it proves; no rule is decided from it, and none is
// this host's RAM failing:
//
//   - FFmpeg's NVENC encoder failing to open a session for want of device memory
//     (libavcodec/nvenc.c, nvenc_print_error after nvEncOpenEncodeSessionEx: "OpenEncodeSessionEx
//     failed: out of memory (10)", NV_ENC_ERR_OUT_OF_MEMORY; the driver also returns it when the
//     card's concurrent-session cap is reached);
//   - a CUDA call in FFmpeg's hwcontext or filters failing with CUDA_ERROR_OUT_OF_MEMORY
//     (libavutil/cuda_check.h ff_cuda_check: "%s failed -> %s: %s", the call, the error's name
//     and its string, "cu->cuMemAlloc(&data, size) failed -> CUDA_ERROR_OUT_OF_MEMORY: out of
//     memory");
//   - a VAAPI call failing with VA_STATUS_ERROR_ALLOCATION_FAILED (libavutil/hwcontext_vaapi.c
//     and libavcodec/vaapi_encode.c: "Failed to create surface: 2 (resource allocation
//     failed).", vaErrorStr's text): the GPU driver could not allocate a surface or buffer;
//   - SQL Server's error 701 (sys.messages: "There is insufficient system memory in resource
//     pool '%ls' to run this query."; learn.microsoft.com MSSQLSERVER_701): the engine's own
//     memory, bounded by its max server memory or, on Linux, memory.memorylimitmb (by default
//     80% of the RAM or of the container's limit), not a kill by the kernel.
//
// A sentence that names the errors ("what does CUDA_ERROR_OUT_OF_MEMORY mean?", "NVENC says
// out of memory when too many sessions run") holds neither FFmpeg's "[codec @ 0x...]" context,
// the call that failed, nor SQL Server's pool name in quotes, and stays prose.

const (
	whyGPUEncoderMemory = "FFmpeg's GPU encoder or hardware context could not get device memory (NVENC's \"OpenEncodeSessionEx failed: out of memory (10)\", a CUDA call's \"failed -> CUDA_ERROR_OUT_OF_MEMORY\", VAAPI's \"(resource allocation failed)\"): the GPU's own memory or NVENC's session cap, not the host's RAM; no kill by the kernel's OOM killer and no rule is decided from it"
	whyMSSQLPoolMemory  = "SQL Server's error 701 (\"There is insufficient system memory in resource pool '...' to run this query\"): the engine could not get memory within its own budget (max server memory, or memory.memorylimitmb on Linux, 80% of the RAM or of the container's limit by default); not a kill by the kernel's OOM killer and no statement of the host's free memory; no rule is decided from it"
)

// ffmpegContext reports whether t holds FFmpeg's log context before k: "[name @ 0x...] ".
func ffmpegContext(t string, k int) bool {
	b := strings.LastIndex(t[:k], "[")
	if b < 0 {
		return false
	}
	ctx := t[b:k]
	at := strings.Index(ctx, " @ ")
	e := strings.Index(ctx, "] ")
	return at > 1 && e > at && strings.HasPrefix(ctx[at+3:], "0") && e+2 == len(ctx)
}

// gpuEncoderMemoryLine: FFmpeg's NVENC, CUDA or VAAPI line that a device allocation failed.
func gpuEncoderMemoryLine(t string) bool {
	if k := strings.Index(t, "OpenEncodeSessionEx failed: out of memory (10)"); k > 0 {
		return ffmpegContext(t, k)
	}
	if k := strings.Index(t, " failed -> CUDA_ERROR_OUT_OF_MEMORY"); k > 0 {
		if c := strings.LastIndex(t[:k], "] "); c > 0 && ffmpegContext(t, c+2) {
			return strings.Contains(t[c+2:k], "(")
		}
		return false
	}
	if k := strings.Index(t, "Failed to "); k > 0 && strings.HasSuffix(strings.TrimRight(t, ". "), "(resource allocation failed)") {
		return ffmpegContext(t, k) && strings.Contains(t[:k], "vaapi")
	}
	return false
}

// mssqlPoolMemoryLine: SQL Server's error 701 with its pool's name in quotes, as its errorlog
// or a client's exception prints it.
func mssqlPoolMemoryLine(t string) bool {
	const msg = "There is insufficient system memory in resource pool '"
	k := strings.Index(t, msg)
	if k < 0 {
		return false
	}
	rest := t[k+len(msg):]
	q := strings.IndexByte(rest, '\'')
	if q <= 0 || !strings.HasPrefix(rest[q:], "' to run this query") {
		return false
	}
	return !adviceLead(t[:k]) && !strings.Contains(t[:k], "?")
}

func init() {
	forms := []figureForm{
		{gpuEncoderMemoryLine, whyGPUEncoderMemory},
		{mssqlPoolMemoryLine, whyMSSQLPoolMemory},
	}
	// First: a sentence-figure reading would name them for what they are not.
	otherLineForms = append(append([]figureForm{}, forms...), otherLineForms...)
	proseLineForms = append(append([]figureForm{}, forms...), proseLineForms...)
}

// h40a: Tdarr's Node and Server log through log4js ("[%d] [%p] %c - %m": "[2026-11-30T10:12:01.123]
// [ERROR] Tdarr_Node - ..."), the shape of xrdp's own lines; its worker's exit code 137 is the
// SIGKILL any exit-137 line reports, its other lines are Tdarr's own account.
const whyTdarrLine = "Tdarr's own log line (log4js \"[stamp] [LEVEL] Tdarr_Node - message\": its workers, jobs and transcodes): the transcode manager's account, not a kernel counter; no rule reads it"

func tdarrWhy(msg string) string {
	if strings.Contains(msg, " exited with code 137") || strings.Contains(msg, " exited with code: 137") {
		return exited137Why
	}
	return whyTdarrLine
}
