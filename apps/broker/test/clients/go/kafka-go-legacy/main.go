// Command kafka-go-legacy drives segmentio/kafka-go 0.2 (Debian's
// golang-github-segmentio-kafka-go-dev) against a broker with its defaults. kafka-go 0.2 has no
// version negotiation: every request has one fixed version (conn.go, write.go) — Metadata v1,
// Produce v2 and Fetch v2 with magic 1 messages (a compressed set is one wrapper whose inner
// offsets count from 0), ListOffsets v1, and for a consumer group FindCoordinator v0,
// JoinGroup v1, SyncGroup v0, Heartbeat v0, OffsetFetch v1 and OffsetCommit v2. (It has a
// LeaveGroup v0 too, but Reader.Close cancels the context it dials the coordinator with before it
// tries to leave, so 0.2.1 never sends it.)
//
// Usage: kafka-go-legacy BOOTSTRAP TOPIC GROUP CODEC COUNT
//
// TOPIC must exist with one partition. The program writes COUNT keyed messages with a Writer
// (CODEC none, gzip, snappy or lz4), reads the partition's first and last offsets over a leader
// connection, reads the messages back with a partition Reader and then with a consumer group
// Reader for GROUP, which commits what it read. It prints one JSON object with what each step saw;
// a step that fails ends the program with the error on stderr and exit status 1.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"strconv"
	"time"

	"github.com/segmentio/kafka-go"
	"github.com/segmentio/kafka-go/gzip"
	"github.com/segmentio/kafka-go/lz4"
	"github.com/segmentio/kafka-go/snappy"
)

type message struct {
	Offset      int64  `json:"offset"`
	Key         string `json:"key"`
	Value       string `json:"value"`
	TimestampMs int64  `json:"timestampMs"`
}

type result struct {
	WrittenFromMs int64     `json:"writtenFromMs"`
	WrittenToMs   int64     `json:"writtenToMs"`
	FirstOffset   int64     `json:"firstOffset"`
	LastOffset    int64     `json:"lastOffset"`
	Read          []message `json:"read"`
	LagAfterRead  int64     `json:"lagAfterRead"`
	GroupRead     []message `json:"groupRead"`
}

// The whole run must fit in the test's budget; the partition Reader alone waits its MaxWait
// (10 s by default) on its first fetch, as its MinBytes default is 1 MB.
const stepTimeout = 45 * time.Second

func main() {
	if len(os.Args) != 6 {
		fail("usage", fmt.Errorf("kafka-go-legacy BOOTSTRAP TOPIC GROUP CODEC COUNT"))
	}
	bootstrap, topic, group, codecName := os.Args[1], os.Args[2], os.Args[3], os.Args[4]
	count, err := strconv.Atoi(os.Args[5])
	check("usage", err)
	codecs := map[string]kafka.CompressionCodec{
		"none":   nil,
		"gzip":   gzip.NewCompressionCodec(),
		"snappy": snappy.NewCompressionCodec(),
		"lz4":    lz4.NewCompressionCodec(),
	}
	codec, known := codecs[codecName]
	if !known {
		fail("usage", fmt.Errorf("unknown codec %q", codecName))
	}
	// kafka-go's loggers go to stderr, where a failing test shows them; they change nothing on the wire.
	logger := log.New(os.Stderr, "[kafka-go] ", log.LstdFlags|log.Lmicroseconds)

	var out result
	out.WrittenFromMs = time.Now().UnixMilli()
	write(bootstrap, topic, codec, count, logger)
	out.WrittenToMs = time.Now().UnixMilli()

	out.FirstOffset, out.LastOffset = offsets(bootstrap, topic)
	out.Read, out.LagAfterRead = readPartition(bootstrap, topic, count, logger)
	out.GroupRead = readGroup(bootstrap, topic, group, count, logger)

	encoded, err := json.Marshal(out)
	check("json", err)
	fmt.Println(string(encoded))
}

// write produces with a Writer of default settings but the codec: round-robin balancing, acks
// from all replicas, batches of up to 100 messages flushed at least every second.
func write(bootstrap, topic string, codec kafka.CompressionCodec, count int, logger *log.Logger) {
	writer := kafka.NewWriter(kafka.WriterConfig{
		Brokers:          []string{bootstrap},
		Topic:            topic,
		CompressionCodec: codec,
		ErrorLogger:      logger,
	})
	messages := make([]kafka.Message, 0, count)
	for index := 0; index < count; index++ {
		messages = append(messages, kafka.Message{
			Key:   []byte(fmt.Sprintf("key-%d", index%5)),
			Value: []byte(fmt.Sprintf("kafka-go value %d", index)),
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), stepTimeout)
	defer cancel()
	check("write messages", writer.WriteMessages(ctx, messages...))
	check("writer close", writer.Close())
}

// offsets asks the partition's leader for its first and last offsets (ListOffsets v1, after a
// Metadata v1 to find the leader).
func offsets(bootstrap, topic string) (int64, int64) {
	ctx, cancel := context.WithTimeout(context.Background(), stepTimeout)
	defer cancel()
	conn, err := kafka.DialLeader(ctx, "tcp", bootstrap, topic, 0)
	check("dial leader", err)
	defer conn.Close()
	first, last, err := conn.ReadOffsets()
	check("read offsets", err)
	return first, last
}

// readPartition reads partition 0 from its first offset with a Reader of default settings, then
// asks for the reader's lag, which it computes from the partition's last offset.
func readPartition(bootstrap, topic string, count int, logger *log.Logger) ([]message, int64) {
	reader := kafka.NewReader(kafka.ReaderConfig{
		Brokers:     []string{bootstrap},
		Topic:       topic,
		Partition:   0,
		ErrorLogger: logger,
	})
	defer func() { check("reader close", reader.Close()) }()
	read := readMessages(reader, count, "read message")
	ctx, cancel := context.WithTimeout(context.Background(), stepTimeout)
	defer cancel()
	lag, err := reader.ReadLag(ctx)
	check("read lag", err)
	return read, lag
}

// readGroup reads the topic as the only member of GROUP, from the first offset as nothing is
// committed yet, with a Reader of default settings: CommitInterval 0, so ReadMessage commits each
// message it returns and waits for the answer.
func readGroup(bootstrap, topic, group string, count int, logger *log.Logger) []message {
	reader := kafka.NewReader(kafka.ReaderConfig{
		Brokers:     []string{bootstrap},
		Topic:       topic,
		GroupID:     group,
		ErrorLogger: logger,
	})
	read := readMessages(reader, count, "group read message")
	check("group reader close", reader.Close())
	return read
}

func readMessages(reader *kafka.Reader, count int, step string) []message {
	ctx, cancel := context.WithTimeout(context.Background(), stepTimeout)
	defer cancel()
	read := make([]message, 0, count)
	for len(read) < count {
		next, err := reader.ReadMessage(ctx)
		check(step, err)
		read = append(read, message{
			Offset:      next.Offset,
			Key:         string(next.Key),
			Value:       string(next.Value),
			TimestampMs: next.Time.UnixMilli(),
		})
	}
	return read
}

func check(step string, err error) {
	if err != nil {
		fail(step, err)
	}
}

func fail(step string, err error) {
	fmt.Fprintf(os.Stderr, "kafka-go-legacy: %s: %v\n", step, err)
	os.Exit(1)
}
