import json,sys,glob,re,collections
# usage: table.py DIR ROWPREFIX...   prints a markdown table and a verdict per row
d=sys.argv[1]; rows=sys.argv[2:]
log={}
for line in open(d+'/grid.log'):
    m=re.match(r'(\S+) (start|end) (\S+).*load (\S+) (\S+) (\S+)',line)
    if m: log.setdefault(m.group(1),{})[m.group(2)]=(m.group(3),m.group(4))
def own_ok(x): return x['peak_socket_mem_pages']<=x['budget_pages']
print("| row | settings (cc) | Mbit/s, run 1 / 2 / … | retransmits (% of data segments) | peak TCP pages, own sockets (kernel-wide) | budget |")
print("|---|---|---|---|---|---|")
verd=[]
for row in rows:
    runs=[]
    for f in sorted(glob.glob(f"{d}/{row}-r*.json")):
        try: runs.append((f,json.load(open(f))['runs']))
        except: pass
    if not runs: continue
    sets=collections.OrderedDict()
    for f,rs in runs:
        for x in rs: sets.setdefault(x['settings'],[]).append(x)
    p=runs[0][1][0]['params']
    link=p['rate_mbps']; bud=runs[0][1][0]['budget_pages']
    loads=[]
    for f,_ in runs:
        k=f.split('/')[-1][:-5]; l=log.get(k,{})
        loads.append(f"{l.get('start',('?','?'))[0]}–{l.get('end',('?','?'))[0]} load {l.get('start',('?','?'))[1]}→{l.get('end',('?','?'))[1]}")
    label=f"{row[0].upper()}: {link:g} Mbit/s, {p['rtt_ms']:g} ms, {p['streams']} streams, {p['memory_bytes']/2**20:g} MiB (budget {bud} pages)"
    for name,xs in sets.items():
        mb=" / ".join(f"{x['throughput_mbps']:.1f}" for x in xs)
        rt=" / ".join(f"{x['retransmits']} ({100*x['retransmits']/max(x.get('data_segments_out',0),1):.2f}%)" if x.get('data_segments_out') else f"{x['retransmits']} (–)" for x in xs)
        pk=" / ".join(f"{x['peak_socket_mem_pages']} ({x['peak_tcp_mem_pages']})" for x in xs)
        held="held" if all(own_ok(x) for x in xs) else ("EXCEEDED" if not any(own_ok(x) for x in xs) else "exceeded in "+", ".join(f"r{i+1}" for i,x in enumerate(xs) if not own_ok(x)))
        n=name if name!='headroom' else '**headroom**'
        print(f"| {label} | {n} ({xs[0]['params']['congestion_control']}) | {mb} | {rt} | {pk} | {held} |")
        label=""
    # verdict
    h=sets['headroom']
    hold=[n for n,xs in sets.items() if n!='headroom' and all(own_ok(x) for x in xs)]
    mean=lambda xs,k: sum(x.get(k,0) for x in xs)/len(xs)
    h_ok=all(own_ok(x) for x in h)
    hm=mean(h,'throughput_mbps')
    thr_ok= hm>=0.95*link
    why=[f"throughput {hm:.1f} = {100*hm/link:.1f}% of the link"] if thr_ok else []
    if not thr_ok and hold:
        best=max(hold,key=lambda n:mean(sets[n],'throughput_mbps'))
        bx=sets[best]
        sp=lambda xs:max(x['throughput_mbps'] for x in xs)-min(x['throughput_mbps'] for x in xs)
        bm=mean(bx,'throughput_mbps')
        below_all = len(h)==len(bx) and all(a['throughput_mbps']<b['throughput_mbps'] for a,b in zip(h,bx))
        if hm>=bm: thr_ok=True; why.append(f"throughput {hm:.1f} (<95%) above the best budget-holding set, {best} {bm:.1f}")
        elif below_all: why.append(f"throughput {hm:.1f} below {best} {bm:.1f} in every one of the {len(h)} compares (the same load window each), whatever the spread")
        elif hm+(sp(h)+sp(bx))/2 >= bm: thr_ok=True; why.append(f"throughput {hm:.1f} (<95%) within spread of {best} {bm:.1f}")
        else: why.append(f"throughput {hm:.1f} + half the spreads {(sp(h)+sp(bx))/2:.1f} below {best} {bm:.1f}")
    elif not thr_ok: why.append("throughput < 95% and no other set holds the budget")
    if hold:
        bestr=min(hold,key=lambda n:mean(sets[n],'retransmits'))
        lim=mean(sets[bestr],'retransmits')+0.01*mean(h,'data_segments_out')
        rtx_ok=mean(h,'retransmits')<=lim
        why.append(f"retransmits {mean(h,'retransmits'):.0f} vs {bestr} {mean(sets[bestr],'retransmits'):.0f} + 1% of segments = {lim:.0f}")
    else:
        rtx_ok=True; why.append("no other set holds the budget")
    v="PASS" if (h_ok and thr_ok and rtx_ok) else "FAIL"
    verd.append((row,v,"; ".join(why)+("" if h_ok else "; budget exceeded"),"; ".join(loads)))
print()
for r in verd: print(f"- {r[0]}: **{r[1]}** — {r[2]} ({r[3]})")
