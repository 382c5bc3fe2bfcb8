//go:build ignore

// The load of bench/soak.sh: CLIENTS concurrent clients, each sending one
// request after another for a duration, a mix of reads and writes across
// the accounts the script set up (a JSON file), counted per route: answers
// by status class, 409s, 5xx, transport errors, p50, p99 and max. Lists keep
// growing: some requests create a list and put the account's vendors on it,
// so the dashboard covers more lists as the run goes on.
//
//	go run bench/soak/main.go -base URL -data data.json -clients 200 -duration 5m
//
// Per request, out of 1000:
//
//	280 read a vendor list                100 read the dashboard
//	150 read a list's assessments          90 read the whole directory
//	 70 read one vendor                    50 read an account's members
//	 30 read an assessment's audit log    120 upsert an assessment (audited;
//	 40 toggle a vendor's alerts               some not created yet)
//	 20 add a product row                  20 add a subscriber (a mail)
//	 30 create a list and fill it (two requests)
//
// The last lines are machine-readable totals: "5xx N", "upsert-409 N"
// (upserts refused because another won), "errors N" (transport errors and
// timeouts) and "worst-p99 MS ROUTE".
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

type account struct {
	ID      string   `json:"id"`
	Token   string   `json:"token"`
	List    string   `json:"list"`
	Vendors []string `json:"vendors"`      // ids, all on List
	Names   []string `json:"vendor_names"` // their names, in the same order
	Audited []string `json:"assessments"`  // assessment ids, for the audit log reads
}

type stat struct {
	mu        sync.Mutex
	lat       []time.Duration
	byClass   [6]int // 1xx..5xx by first digit; [0] transport errors
	conflicts int
}

type stats struct {
	mu     sync.Mutex
	routes map[string]*stat
}

func (s *stats) record(route string, status int, d time.Duration) {
	s.mu.Lock()
	st := s.routes[route]
	if st == nil {
		st = &stat{}
		s.routes[route] = st
	}
	s.mu.Unlock()
	st.mu.Lock()
	defer st.mu.Unlock()
	st.lat = append(st.lat, d)
	if status == 0 {
		st.byClass[0]++
		return
	}
	st.byClass[min(status/100, 5)]++
	if status == http.StatusConflict {
		st.conflicts++
	}
}

func pct(sorted []time.Duration, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted)-1) * p)
	return float64(sorted[i]) / float64(time.Millisecond)
}

func main() {
	base := flag.String("base", "", "the service's base URL")
	data := flag.String("data", "", "the accounts (JSON)")
	clients := flag.Int("clients", 200, "concurrent clients")
	duration := flag.Duration("duration", 5*time.Minute, "how long")
	quiet := flag.Bool("quiet", false, "print only the totals (a warm-up)")
	flag.Parse()
	raw, err := os.ReadFile(*data)
	if err != nil {
		log.Fatal(err)
	}
	var accounts []account
	if err := json.Unmarshal(raw, &accounts); err != nil {
		log.Fatal(err)
	}
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConns: *clients, MaxIdleConnsPerHost: *clients}}
	st := &stats{routes: map[string]*stat{}}
	var seq, lists atomic.Int64
	do := func(route, method, path string, acc account, body string) int {
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, err := http.NewRequest(method, *base+path, rd)
		if err != nil {
			log.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+acc.Token)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		t0 := time.Now()
		res, err := hc.Do(req)
		status := 0
		if err == nil {
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			status = res.StatusCode
		}
		st.record(route, status, time.Since(t0))
		return status
	}
	deadline := time.Now().Add(*duration)
	start := time.Now()
	var wg sync.WaitGroup
	for c := range *clients {
		wg.Go(func() {
			rnd := rand.New(rand.NewPCG(uint64(c), uint64(time.Now().UnixNano())))
			for time.Now().Before(deadline) {
				acc := accounts[rnd.IntN(len(accounts))]
				v := rnd.IntN(len(acc.Vendors))
				vendor := acc.Vendors[v]
				q := "?account-id=" + acc.ID
				list := "&vendor-list-id=" + acc.List
				n := seq.Add(1)
				switch r := rnd.IntN(1000); {
				case r < 280:
					do("GET /vendor-lists (a list)", "GET", "/vendor-lists"+q+list, acc, "")
				case r < 430:
					do("GET /vendor-assessments", "GET", "/vendor-assessments"+q+list, acc, "")
				case r < 530:
					do("GET /metrics/dashboard", "GET", "/metrics/dashboard"+q, acc, "")
				case r < 620:
					do("GET /vendors/all", "GET", "/vendors/all", acc, "")
				case r < 690:
					do("GET /vendor/{id}", "GET", "/vendor/"+vendor, acc, "")
				case r < 740:
					do("GET /users", "GET", "/users"+q, acc, "")
				case r < 770:
					do("GET /vendor-assessments/audit-log", "GET", "/vendor-assessments/audit-log"+q+"&assessment-id="+acc.Audited[rnd.IntN(len(acc.Audited))], acc, "")
				case r < 890:
					method := []string{"PUT", "POST"}[rnd.IntN(2)]
					do(method+" /vendor-assessments (upsert)", method, "/vendor-assessments"+q+list, acc,
						fmt.Sprintf(`{"vendor_id":%q,"compliance_comment":"soak %d-%d"}`, vendor, c, n))
				case r < 930:
					do("PATCH /vendor-lists (alerts)", "PATCH", "/vendor-lists"+q+"&operation=alerts-enabled"+list, acc,
						fmt.Sprintf(`{"vendor-id":%q,"alerts_enabled":%v}`, vendor, rnd.IntN(2) == 1))
				case r < 950:
					do("POST products", "POST", "/vendor-lists/"+acc.List+"/vendors/"+vendor+"/products"+q, acc,
						fmt.Sprintf(`{"product_name":"Soak %d-%d"}`, c, n))
				case r < 970:
					do("POST /subscribers", "POST", "/subscribers"+q+list, acc, fmt.Sprintf(`{"subscriber-email":"s%d-%d@soak.test"}`, c, n))
				default:
					// Unique across runs too (the warm-up is a run of its own).
					name := fmt.Sprintf("Soak+Grown+%d-%d", start.UnixNano(), lists.Add(1))
					if do("POST /vendor-lists (create)", "POST", "/vendor-lists"+q+"&vendor-list="+name, acc, "") != http.StatusCreated {
						continue
					}
					var body bytes.Buffer
					body.WriteString(`{"vendors":[`)
					for i, nm := range acc.Names {
						if i > 0 {
							body.WriteByte(',')
						}
						fmt.Fprintf(&body, `{"vendor_name":%q}`, nm)
					}
					body.WriteString(`]}`)
					do("POST /vendor-lists (save-vendors)", "POST", "/vendor-lists"+q+"&operation=save-vendors&vendor-list="+name, acc, body.String())
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	names := make([]string, 0, len(st.routes))
	var total, fivexx, conflicts, errs int
	for name, s := range st.routes {
		names = append(names, name)
		total += len(s.lat)
		fivexx += s.byClass[5]
		if strings.Contains(name, "(upsert)") {
			conflicts += s.conflicts
		}
		errs += s.byClass[0]
	}
	sort.Strings(names)
	slowest, slowestRoute := 0.0, ""
	if !*quiet {
		fmt.Printf("%-36s %8s %8s %6s %6s %6s %6s %9s %9s %9s\n", "route", "requests", "2xx", "409", "4xx", "5xx", "errors", "p50_ms", "p99_ms", "max_ms")
		for _, name := range names {
			s := st.routes[name]
			slices.Sort(s.lat)
			if p99 := pct(s.lat, 0.99); p99 > slowest {
				slowest, slowestRoute = p99, name
			}
			fmt.Printf("%-36s %8d %8d %6d %6d %6d %6d %9.1f %9.1f %9.1f\n", name, len(s.lat), s.byClass[2], s.conflicts,
				s.byClass[4]-s.conflicts, s.byClass[5], s.byClass[0], pct(s.lat, 0.5), pct(s.lat, 0.99), pct(s.lat, 1))
		}
		fmt.Printf("lists created during the run: %d (over %d accounts)\n", lists.Load(), len(accounts))
	}
	fmt.Printf("requests %d in %.1f s (%.0f/s)\n", total, elapsed.Seconds(), float64(total)/elapsed.Seconds())
	fmt.Printf("5xx %d\nupsert-409 %d\nerrors %d\nworst-p99 %.1f %s\n", fivexx, conflicts, errs, slowest, slowestRoute)
}
