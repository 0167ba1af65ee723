package check

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Config says what to check and how.
type Config struct {
	Command []string // the server command, started over stdio; or
	URL     string   // the Streamable HTTP endpoint

	Era    string   // "modern", "legacy", or "" for every era the server speaks
	Tools  []string // the tools whose bounds may be probed with arguments that keep the others valid
	Call   bool     // probe every tool as Tools does, and call each once with arguments that fit its schema
	DryRun bool     // discover, then plan every probe and send none

	Wait  time.Duration // the bound on the wait for one reply (default 5s)
	Start time.Duration // the bound on a server's first reply, which "go run" builds first (default 30s)
}

// Era is what the check found in one era of the server.
type Era struct {
	Version   string    `json:"version"`   // the protocol version spoken
	Transport string    `json:"transport"` // "stdio" or "HTTP"
	Verdicts  []Verdict `json:"verdicts"`
	Probes    []*Probe  `json:"-"` // what it sent, or with DryRun would send
}

// Report is the whole check.
type Report struct {
	Eras []*Era `json:"eras"`
}

// Fails reports whether any verdict fails the check.
func (r *Report) Fails() bool {
	for _, e := range r.Eras {
		for _, v := range e.Verdicts {
			if v.Kind.Fails() {
				return true
			}
		}
	}
	return false
}

// ErrStopped is wrapped by the error of a check that its context ended
// before its end (mcpc's -timeout, Ctrl-C), with the context's cause: the
// report holds the verdicts found so far, and says of each lesson the check
// did not reach that it was not checked, and why.
var ErrStopped = errors.New("the check stopped before its end")

// Run checks the server that cfg names in each era it speaks. Its error
// wraps ErrStopped when ctx ended first, and the report is the part done;
// otherwise it wraps ErrUnreachable: the server could not be started or
// reached, or no era could be checked.
func Run(ctx context.Context, cfg *Config) (*Report, error) {
	if cfg.Wait <= 0 {
		cfg.Wait = 5 * time.Second
	}
	if cfg.Start <= 0 {
		cfg.Start = 30 * time.Second
	}
	var base transport
	if cfg.URL != "" {
		base = newHTTP(cfg.URL, cfg.Wait)
	} else {
		base = &stdioTransport{argv: cfg.Command, wait: cfg.Wait, start: cfg.Start}
	}
	r := &Report{}
	var failed error // the first era that failed; a server that dies on server/discover may speak the other
	checked := 0
	for _, modern := range []bool{true, false} {
		if cfg.Era == "modern" && !modern || cfg.Era == "legacy" && modern {
			continue
		}
		name := "a session era"
		if modern {
			name = "2026-07-28"
		}
		notChecked := func(why string) {
			r.Eras = append(r.Eras, &Era{Version: name, Transport: base.name(), Verdicts: []Verdict{{Lesson: "era", Version: name, Kind: NotChecked, Detail: why}}})
		}
		if ctx.Err() != nil {
			notChecked("the check stopped before it: " + context.Cause(ctx).Error())
			continue
		}
		era, err := checkEra(ctx, cfg, base.fresh(), modern)
		switch {
		case era != nil:
			r.Eras = append(r.Eras, era)
			checked++
		case ctx.Err() != nil:
			notChecked("the check stopped before it knew whether the server speaks this era: " + context.Cause(ctx).Error())
		case err != nil:
			if failed == nil {
				failed = err
			}
			notChecked("the era could not be checked: " + err.Error())
		}
	}
	switch {
	case ctx.Err() != nil:
		return r, fmt.Errorf("%w: %w", ErrStopped, context.Cause(ctx))
	case checked > 0:
		return r, nil
	case failed != nil && !errors.Is(failed, ErrUnreachable):
		return r, fmt.Errorf("%w: %w", ErrUnreachable, failed)
	case failed != nil:
		return r, failed
	}
	return r, fmt.Errorf("%w: it speaks neither 2026-07-28 (server/discover) nor a session era (initialize)", ErrUnreachable)
}

// checkEra checks one era over its own connection; it returns nil when the
// server does not speak the era. When ctx ends during the probes, the era
// holds the verdicts found so far, and one not checked for each probe not
// answered.
func checkEra(ctx context.Context, cfg *Config, t transport, modern bool) (*Era, error) {
	defer t.close()
	s := &session{cfg: cfg, t: t, modern: modern}
	ok, err := s.open(ctx)
	if err != nil || !ok {
		return nil, err
	}
	cat, err := s.discover(ctx)
	if err != nil {
		return nil, err
	}
	_, isHTTP := t.(*httpTransport)
	pl := &planner{s: s, cfg: cfg, http: isHTTP}
	pl.plan(cat)
	era := &Era{Version: s.version, Transport: t.name(), Probes: pl.probes}
	if cfg.DryRun {
		return era, nil
	}
	leaked := false
	for i, p := range pl.probes {
		var a *Answer
		if p.Fresh {
			fs := &session{cfg: cfg, t: t.fresh(), modern: modern, version: s.version}
			a = fs.t.exchange(ctx, fs, p)
			fs.t.close()
		} else {
			a = t.exchange(ctx, s, p)
		}
		if ctx.Err() != nil {
			era.Verdicts = append(era.Verdicts, stopped(ctx, p, s.version, true))
			for _, q := range pl.probes[i+1:] {
				era.Verdicts = append(era.Verdicts, stopped(ctx, q, s.version, false))
			}
			era.Verdicts = append(era.Verdicts, pl.skips...)
			era.Verdicts = append(era.Verdicts, Verdict{Lesson: LessonInternals, Version: s.version, Kind: NotChecked,
				Detail: "the check stopped before its end, so not every text was received: " + context.Cause(ctx).Error()})
			return era, ctx.Err()
		}
		a.Sent = append(a.Sent, cat.published...)
		for _, v := range Judge(p, a) {
			leaked = leaked || v.Kind == Leaks
			era.Verdicts = append(era.Verdicts, v)
		}
	}
	era.Verdicts = append(era.Verdicts, pl.skips...)
	if !leaked {
		era.Verdicts = append(era.Verdicts, Verdict{Lesson: LessonInternals, Version: s.version, Kind: AsGuide,
			Detail: "no stack trace, SQL or source path in any text received"})
	}
	return era, nil
}

// stopped is the verdict on a probe that the end of ctx left unanswered:
// sent, and stopped while the check waited, or never sent.
func stopped(ctx context.Context, p *Probe, version string, sent bool) Verdict {
	v := Verdict{Lesson: p.Lesson, Target: p.Target, Version: version, Row: p.Row, Kind: NotChecked}
	if sent {
		v.Request, v.Reply = p.Short, "no answer before the check stopped"
		v.Detail = "the check stopped while it waited for the answer: " + context.Cause(ctx).Error()
	} else {
		v.Detail = "the check stopped before it: " + context.Cause(ctx).Error()
	}
	return v
}
