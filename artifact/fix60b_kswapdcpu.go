package artifact

// kswapdTakesCPU: the CPU named first and kswapd as who takes it (fix60b): "CPU at 100%
// mostly used by kswapd0", "the cpu is eaten by kswapd", "all CPU consumed by kswapd0". No
// figure is read from it (the share may be the whole machine's, not kswapd's): 1, as
// reStatedKswapdBusy's other forms.
const kswapdTakesCPU = `|\bcpus?\b[^.;!?。！？]{0,30}?\b(?:(?:mostly|mainly|largely|almost\s+all|all)\s+)?(?:used|taken|eaten|consumed|hogged|burned|burnt)\s+(?:up\s+)?by\s+(?:the\s+)?[` + "`" + `'"*]*kswap\w*\b`
