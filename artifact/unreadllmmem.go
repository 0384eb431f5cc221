package artifact

import "strings"

// fix44a (corpora 3691, 3695): the memory lines an LLM server logs about the machine it
// loads a model on, in a text where nothing else was read. Three forms, each named unread
// with what it proves; no rule is decided from them:
//
//   - ollama's own reading of the host's memory (discover/gpu.go, at OLLAMA_DEBUG:
//     slog.Debug("updating system memory data", before.total, before.free, before.free_swap,
//     now.total, now.free, now.free_swap), logfmt with quoted sizes "1007.5 GiB"): the host's
//     RAM and swap as ollama read them at one moment, a program's log line, not /proc/meminfo;
//     and its readings of a GPU's memory ("updating cuda memory data", "updating rocm memory
//     data", "updating oneapi memory data": the device's VRAM, never host RAM);
//   - llama.cpp's device line at model load (src/llama.cpp llama_model_load_from_file_impl:
//     "using device %s (%s) - %zu MiB free"): the GPU backend's free device memory;
//   - the ROCm runtime's GPU memory fault (ROCR-Runtime, the HSA runtime's memory fault
//     handler: "Memory critical error by agent node-N (Agent handle: 0x...) on address
//     0x.... Reason: R."): a GPU agent's fault at a device address, no statement about the
//     host's memory and no kill by the kernel.
//
// A sentence that names the messages ("what does 'Memory critical error' mean?") holds
// neither the logfmt keys, the "MiB free" figure nor the agent and address, and stays prose.

const (
	whyLLMHostMemory = "ollama's own reading of the host's memory (discover/gpu.go \"updating system memory data\": total, free and free_swap before and now, as GiB strings): the host's RAM and swap at one moment as a program logged them, not /proc/meminfo; headroom reads no pressure rule from it"
	whyLLMGPUMemory  = "a GPU's own memory as an LLM server logged it (ollama's \"updating cuda/rocm/oneapi memory data\", llama.cpp's \"using device ... MiB free\"): the device's VRAM or its share of memory as the GPU driver reports it, not the host's RAM; no rule is decided from it"
	whyHSAMemFault   = "the ROCm runtime's GPU memory fault (ROCR's \"Memory critical error by agent node-N ... on address 0x... Reason: ...\"): a GPU agent faulted on a device address; GPU memory, not the host's RAM, and no kill by the kernel's OOM killer; no rule is decided from it"
)

// ollamaSystemMemLine: ollama's debug line of the host's memory with its figures.
func ollamaSystemMemLine(t string) bool {
	return strings.Contains(t, `msg="updating system memory data"`) && (strings.Contains(t, "now.total=") || strings.Contains(t, "before.total="))
}

// llmGPUMemLine: ollama's debug line of a GPU's memory, or llama.cpp's device line with its
// free MiB.
func llmGPUMemLine(t string) bool {
	if k := strings.Index(t, `msg="updating `); k >= 0 {
		rest := t[k+len(`msg="updating `):]
		for _, g := range [...]string{"cuda", "rocm", "oneapi", "vulkan"} {
			if strings.HasPrefix(rest, g+` memory data"`) {
				return strings.Contains(rest, "total=")
			}
		}
		return false
	}
	k := strings.Index(t, ": using device ")
	if k < 0 || !strings.HasSuffix(strings.TrimSpace(t), " MiB free") {
		return false
	}
	d := strings.LastIndex(t, " - ")
	return d > k && isDigits(strings.TrimSuffix(strings.TrimSpace(t[d+3:]), " MiB free"))
}

// hsaMemoryFaultLine: the HSA runtime's memory fault line, agent, address and reason.
func hsaMemoryFaultLine(t string) bool {
	k := strings.Index(t, "Memory critical error by agent node-")
	if k < 0 {
		return false
	}
	rest := t[k:]
	return strings.Contains(rest, " on address 0x") && strings.Contains(rest, ". Reason: ")
}

func init() {
	forms := []figureForm{
		{ollamaSystemMemLine, whyLLMHostMemory},
		{llmGPUMemLine, whyLLMGPUMemory},
		{hsaMemoryFaultLine, whyHSAMemFault},
	}
	otherLineForms = append(otherLineForms, forms...)
	proseLineForms = append(proseLineForms, forms...)
}
