package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
)

var benchLine = regexp.MustCompile(`^(Benchmark\S+)\s+\d+\s+([\d.]+) ns/op(?:\s+([\d.]+) B/op)?(?:\s+([\d.]+) allocs/op)?`)

type sample map[string][]float64

func run(rev, pkg, bench string, count int, cpu string) (sample, error) {
	dir, err := os.MkdirTemp("", "benchcmp-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	wt := filepath.Join(dir, "wt")
	if out, err := exec.Command("git", "worktree", "add", "--detach", wt, rev).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("worktree %s: %v: %s", rev, err, out)
	}
	defer exec.Command("git", "worktree", "remove", "--force", wt).Run()

	args := []string{"test", "-run", "^$", "-bench", bench, "-benchmem", "-count", strconv.Itoa(count)}
	if cpu != "" {
		args = append(args, "-cpu", cpu)
	}
	args = append(args, pkg)
	cmd := exec.Command("go", args...)
	cmd.Dir = wt
	var buf bytes.Buffer
	cmd.Stdout = &buf
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, err
	}
	s := sample{}
	sc := bufio.NewScanner(&buf)
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		v, _ := strconv.ParseFloat(m[2], 64)
		s[m[1]] = append(s[m[1]], v)
	}
	return s, nil
}

func median(xs []float64) float64 {
	c := append([]float64(nil), xs...)
	sort.Float64s(c)
	n := len(c)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return c[n/2]
	}
	return (c[n/2-1] + c[n/2]) / 2
}

// significant is a crude check: the ranges of the two samples do not overlap.
func significant(a, b []float64) bool {
	sort.Float64s(a)
	sort.Float64s(b)
	return a[len(a)-1] < b[0] || b[len(b)-1] < a[0]
}

func main() {
	base := flag.String("base", "origin/main", "base revision")
	head := flag.String("head", "HEAD", "head revision")
	pkg := flag.String("pkg", "./...", "packages")
	bench := flag.String("bench", ".", "benchmark regexp")
	count := flag.Int("count", 6, "runs per revision")
	cpu := flag.String("cpu", "", "go test -cpu value")
	flag.BoolVar(&stable, "stable", true, "prepare machine for low-noise runs")
	flag.Parse()

	prepareStable()

	a, err := run(*base, *pkg, *bench, *count, *cpu)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	b, err := run(*head, *pkg, *bench, *count, *cpu)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	names := make([]string, 0, len(a))
	for k := range a {
		if _, ok := b[k]; ok {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	fmt.Printf("| benchmark | base ns/op | head ns/op | delta | |\n|---|---|---|---|---|\n")
	for _, n := range names {
		ma, mb := median(a[n]), median(b[n])
		sig := ""
		if significant(a[n], b[n]) {
			sig = "significant"
		}
		fmt.Printf("| %s | %.1f | %.1f | %+.1f%% | %s |\n", n, ma, mb, (mb-ma)/ma*100, sig)
	}
}
