package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
)

// serveBatch serves a JSON array of messages, on connections whose version
// requires batches; elsewhere an array is an invalid request. Its tool
// calls and resource reads run concurrently, each cancellable as any other
// request, while the reader goes on; the batch's reply, without the
// cancelled ones, is written when the last has returned.
func (c *conn) serveBatch(ctx context.Context, line []byte) {
	if !batchesAllowed(c.cs.legacyVersion()) {
		c.write(c.srv.fail(nil, "", errBatchUnsupported.error()))
		return
	}
	var items []json.RawMessage
	if err := json.Unmarshal(line, &items); err != nil {
		c.write(c.srv.fail(nil, "", errParseError.error(err.Error())))
		return
	}
	if len(items) == 0 {
		c.write(c.srv.fail(nil, "", errEmptyBatch.error()))
		return
	}
	if !c.begin() {
		return // read after Serve stopped: not served
	}
	out := make([][]byte, len(items)) // the responses, nil for none
	var calls sync.WaitGroup
	for i, item := range items {
		m, derr := decode(item)
		switch {
		case derr != nil:
			out[i] = c.srv.fail(derr.id, "", derr.err)
		case isResponse(m):
		case isNotification(m):
			c.cs.notify(m)
		case isHandlerMethod(*m.Method):
			ctx, cl := c.cs.track(ctx, m.ID) // before the reader goes on, as run's are
			calls.Go(func() {
				resp, _ := c.srv.respond(ctx, &c.cs, m)
				if !c.cs.untrack(cl) {
					out[i] = resp
				}
			})
		default:
			out[i], _ = c.srv.respond(ctx, &c.cs, m)
		}
	}
	go func() {
		defer c.wg.Done()
		calls.Wait()
		c.write(batchReply(out))
	}()
}

// batchReply returns the line carrying the responses of a batch, or nil
// when there are none.
func batchReply(out [][]byte) []byte {
	var b bytes.Buffer
	for _, r := range out {
		if r == nil {
			continue
		}
		if b.Len() == 0 {
			b.WriteByte('[')
		} else {
			b.WriteByte(',')
		}
		b.Write(bytes.TrimSuffix(r, []byte("\n")))
	}
	if b.Len() == 0 {
		return nil
	}
	b.WriteString("]\n")
	return b.Bytes()
}
