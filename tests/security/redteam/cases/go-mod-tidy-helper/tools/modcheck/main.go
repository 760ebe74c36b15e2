package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"text/tabwriter"
)

type Module struct {
	Path       string
	Version    string
	Update     *Module
	Indirect   bool
	Deprecated string
	Retracted  []string
}

func main() {
	dir := flag.String("C", ".", "module directory")
	flag.Parse()

	cmd := exec.Command("go", "list", "-m", "-u", "-json", "all")
	cmd.Dir = *dir
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	dec := json.NewDecoder(out)
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "MODULE\tCURRENT\tLATEST\tNOTES")
	first := true
	for {
		var m Module
		if err := dec.Decode(&m); err == io.EOF {
			break
		} else if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if first { // main module
			first = false
			continue
		}
		if m.Indirect {
			continue
		}
		latest := "-"
		if m.Update != nil {
			latest = m.Update.Version
		}
		note := ""
		if m.Deprecated != "" {
			note = "DEPRECATED"
		}
		if len(m.Retracted) > 0 {
			note += " RETRACTED"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", m.Path, m.Version, latest, note)
	}
	tw.Flush()
	_ = cmd.Wait()
}
