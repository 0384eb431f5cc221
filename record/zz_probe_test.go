package record
import ("testing";"encoding/json";"bytes";"compress/gzip";"time";"io";"headroom/kernel";"headroom/source")
func TestProbe(t *testing.T){
 s:=source.NewSampler(kernel.HostRoot(), source.DefaultOptions()); defer s.Close()
 var js [][]byte
 for i:=0;i<20;i++{ a:=s.Sample(time.Now()); b,_:=json.Marshal(a); js=append(js,append(b,'\n')); time.Sleep(100*time.Millisecond)}
 for _, lvl := range []int{gzip.BestSpeed, gzip.DefaultCompression, 2, 3} {
  var buf bytes.Buffer; z,_:=gzip.NewWriterLevel(&buf,lvl)
  st:=time.Now()
  for _,b:=range js { z.Write(b); z.Flush() }
  el:=time.Since(st)
  n:=buf.Len()
  z.Close()
  t.Logf("lvl %d: %d bytes for 20 => %d/sample, %v per sample", lvl, n, n/20, el/20)
  // truncated read
  tr:=buf.Bytes()[:n-100]
  r,_:=gzip.NewReader(bytes.NewReader(tr))
  out,err:=io.ReadAll(r)
  t.Logf("truncated: got %d of %d, err %v", len(out), 20*len(js[0]), err)
 }
}
