package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// RabbitMQ's status prints the memory it detected through its high watermark: the
// broker blocks publishers at vm_memory_limit = vm_memory_high_watermark × the memory it
// detected (rabbit_vm_memory_monitor: the machine's RAM as the Erlang VM's memsup reports
// it, a container's cgroup limit on 3.6.?+ builds that read it, or
// total_memory_available_override_value). The Erlang terms of `rabbitmqctl status` before
// 3.8 ("{vm_memory_high_watermark,0.4}," and "{vm_memory_limit,8939565875},") and the text
// of 3.8+ ("Memory high watermark setting: 0.4 of available memory, computed to: 8.9 gb")
// both give it as limit ÷ fraction. An absolute watermark ({absolute,"2GB"}) says nothing of
// the memory and gives none.
var (
	reRabbitFraction = lazyre.New(`\{vm_memory_high_watermark,\s*(0?\.\d+|1(?:\.0+)?)\s*\}`)
	reRabbitLimit    = lazyre.New(`\{vm_memory_limit,\s*(\d+)\s*\}`)
	reRabbitText     = lazyre.New(`(?i)Memory high watermark setting:\s*(0?\.\d+|1(?:\.0+)?) of available memory, computed to:\s*(\d+(?:\.\d+)?)\s*(gb|mb|tb)\b`)
)

// rabbitMQMemory reads the memory RabbitMQ detected from its status in the prose lines
// (kB), and the lines it came from.
func rabbitMQMemory(lines []proseLine) (kb int64, first, last int, ok bool) {
	var fraction, limit float64
	for _, p := range lines {
		if !strings.Contains(p.text, "vm_memory_") && !strings.Contains(p.text, "watermark setting") {
			continue
		}
		if m := reRabbitText.FindStringSubmatch(p.text); m != nil {
			f, _ := strconv.ParseFloat(m[1], 64)
			v, _ := strconv.ParseFloat(m[2], 64)
			if f > 0 {
				// rabbitmq-diagnostics prints decimal units (rabbit_resource_monitor_misc).
				mult := map[string]float64{"mb": 1e6, "gb": 1e9, "tb": 1e12}[strings.ToLower(m[3])]
				return int64(v * mult / f / 1024), p.no, p.no, true
			}
		}
		if m := reRabbitFraction.FindStringSubmatch(p.text); m != nil {
			fraction, _ = strconv.ParseFloat(m[1], 64)
			first = p.no
		}
		if m := reRabbitLimit.FindStringSubmatch(p.text); m != nil {
			limit, _ = strconv.ParseFloat(m[1], 64)
			last = p.no
		}
	}
	if fraction <= 0 || limit <= 0 || first == 0 || last == 0 {
		return 0, 0, 0, false
	}
	return int64(limit / fraction / 1024), min(first, last), max(first, last), true
}
