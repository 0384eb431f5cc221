package main

import (
	"encoding/json"
	"os"

	"headroom/lab"
)

func main() {
	var rep lab.Report
	b, _ := os.ReadFile(os.Args[1])
	if err := json.Unmarshal(b, &rep); err != nil {
		panic(err)
	}
	lab.WriteTable(os.Stdout, &rep)
}
