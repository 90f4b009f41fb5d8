// Command sarama-legacy drives Sarama 1.22 (Debian's golang-github-shopify-sarama-dev) against a
// broker with Sarama's default configuration, whose Version is V0_8_2_0: Metadata v0, Produce v0
// and Fetch v0 with magic 0 messages, ListOffsets v0, FindCoordinator v0, and OffsetCommit v1 and
// OffsetFetch v1 from the offset manager (which pins those two versions whatever Version says).
//
// Usage: sarama-legacy BOOTSTRAP TOPIC GROUP COUNT
//
// TOPIC must exist. The program describes it with a ClusterAdmin, produces COUNT keyed messages
// with a SyncProducer, reads each partition's oldest and newest offsets, consumes every partition
// from the oldest offset with a partition consumer, commits an offset for GROUP with the offset
// manager and reads it back with a fresh one. It prints one JSON object with what each step saw;
// a step that fails ends the program with the error on stderr and exit status 1.
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"os"
	"sort"
	"strconv"
	"time"

	"github.com/Shopify/sarama"
)

type partitionInfo struct {
	ID       int32   `json:"id"`
	Error    string  `json:"error"`
	Leader   int32   `json:"leader"`
	Replicas []int32 `json:"replicas"`
}

type topicInfo struct {
	Name       string          `json:"name"`
	Error      string          `json:"error"`
	Partitions []partitionInfo `json:"partitions"`
}

type listedTopic struct {
	NumPartitions int32             `json:"numPartitions"`
	Configs       map[string]string `json:"configs"`
}

type message struct {
	Partition int32  `json:"partition"`
	Offset    int64  `json:"offset"`
	Key       string `json:"key"`
	Value     string `json:"value"`
	// Unix milliseconds, or null where Sarama leaves the time zero: magic 0 messages have none.
	TimestampMs *int64 `json:"timestampMs"`
}

type partitionOffsets struct {
	Oldest int64 `json:"oldest"`
	Newest int64 `json:"newest"`
}

type commitResult struct {
	// NextOffset before anything was committed: Consumer.Offsets.Initial (OffsetNewest, -1).
	InitialNextOffset int64 `json:"initialNextOffset"`
	Committed         int64 `json:"committed"`
	// What PartitionOffsetManager.Close and OffsetManager.Close returned ("" for nil).
	PartitionCloseError string `json:"partitionCloseError"`
	ManagerCloseError   string `json:"managerCloseError"`
	ReadBackOffset      int64  `json:"readBackOffset"`
	ReadBackMetadata    string `json:"readBackMetadata"`
}

type result struct {
	Described    []topicInfo                 `json:"described"`
	ControllerID int32                       `json:"controllerId"`
	BrokerIDs    []int32                     `json:"brokerIds"`
	Listed       map[string]listedTopic      `json:"listed"`
	Produced     []message                   `json:"produced"`
	Offsets      map[string]partitionOffsets `json:"offsets"`
	Consumed     []message                   `json:"consumed"`
	Commit       commitResult                `json:"commit"`
}

func main() {
	if len(os.Args) != 5 {
		fail("usage", fmt.Errorf("sarama-legacy BOOTSTRAP TOPIC GROUP COUNT"))
	}
	brokers := []string{os.Args[1]}
	topic, group := os.Args[2], os.Args[3]
	count, err := strconv.Atoi(os.Args[4])
	if err != nil {
		fail("usage", err)
	}
	// Sarama's log goes to stderr, where a failing test shows it; it changes nothing on the wire.
	sarama.Logger = log.New(os.Stderr, "[sarama] ", log.LstdFlags|log.Lmicroseconds)

	var out result
	out.Described, out.ControllerID, out.BrokerIDs = describe(brokers, topic)
	out.Listed = listTopics(brokers)
	out.Produced = produce(brokers, topic, count)

	client, err := sarama.NewClient(brokers, nil)
	check("client", err)
	partitions, err := client.Partitions(topic)
	check("partitions", err)
	out.Offsets = map[string]partitionOffsets{}
	for _, partition := range partitions {
		oldest, err := client.GetOffset(topic, partition, sarama.OffsetOldest)
		check("oldest offset", err)
		newest, err := client.GetOffset(topic, partition, sarama.OffsetNewest)
		check("newest offset", err)
		out.Offsets[strconv.Itoa(int(partition))] = partitionOffsets{Oldest: oldest, Newest: newest}
	}
	out.Consumed = consume(client, topic, partitions, out.Offsets)
	check("client close", client.Close())

	out.Commit = commitAndReadBack(brokers, topic, group, int64(count/2))

	encoded, err := json.Marshal(out)
	check("json", err)
	fmt.Println(string(encoded))
}

// describe uses a ClusterAdmin at the smallest Version sarama.NewClusterAdmin accepts: it asks the
// client for the controller, which Sarama refuses below V0_10_0_0 (ErrUnsupportedVersion). At that
// Version the client refreshes its metadata with Metadata v1 (the first with a controller id), and
// DescribeTopics and DescribeCluster send Metadata v0 to the controller.
func describe(brokers []string, topic string) ([]topicInfo, int32, []int32) {
	config := sarama.NewConfig()
	config.Version = sarama.V0_10_0_0
	admin, err := sarama.NewClusterAdmin(brokers, config)
	check("cluster admin", err)
	defer closeOrFail("cluster admin close", admin.Close)

	metadata, err := admin.DescribeTopics([]string{topic})
	check("describe topics", err)
	described := make([]topicInfo, 0, len(metadata))
	for _, entry := range metadata {
		info := topicInfo{Name: entry.Name, Error: errorText(entry.Err), Partitions: []partitionInfo{}}
		for _, partition := range entry.Partitions {
			info.Partitions = append(info.Partitions, partitionInfo{
				ID:       partition.ID,
				Error:    errorText(partition.Err),
				Leader:   partition.Leader,
				Replicas: partition.Replicas,
			})
		}
		sort.Slice(info.Partitions, func(i, j int) bool { return info.Partitions[i].ID < info.Partitions[j].ID })
		described = append(described, info)
	}

	brokerList, controllerID, err := admin.DescribeCluster()
	check("describe cluster", err)
	ids := make([]int32, 0, len(brokerList))
	for _, broker := range brokerList {
		ids = append(ids, broker.ID())
	}
	return described, controllerID, ids
}

// listTopics needs V0_11_0_0, one step above the admin's minimum: ListTopics follows its
// all-topics Metadata v0 (an empty list) with DescribeConfigs v0, which Sarama refuses to send
// below 0.11. It keeps only the configs DescribeConfigs does not mark as defaults.
func listTopics(brokers []string) map[string]listedTopic {
	config := sarama.NewConfig()
	config.Version = sarama.V0_11_0_0
	admin, err := sarama.NewClusterAdmin(brokers, config)
	check("cluster admin 0.11", err)
	defer closeOrFail("cluster admin 0.11 close", admin.Close)

	topics, err := admin.ListTopics()
	check("list topics", err)
	listed := map[string]listedTopic{}
	for name, detail := range topics {
		configs := map[string]string{}
		for key, value := range detail.ConfigEntries {
			if value != nil {
				configs[key] = *value
			}
		}
		listed[name] = listedTopic{NumPartitions: detail.NumPartitions, Configs: configs}
	}
	return listed
}

// produce sends COUNT keyed messages with NewSyncProducer's own defaults (a nil config): the hash
// partitioner, acks from the leader, no compression, Produce v0 with magic 0 messages.
func produce(brokers []string, topic string, count int) []message {
	producer, err := sarama.NewSyncProducer(brokers, nil)
	check("sync producer", err)
	defer closeOrFail("sync producer close", producer.Close)

	produced := make([]message, 0, count)
	for index := 0; index < count; index++ {
		key := fmt.Sprintf("key-%d", index%7)
		value := fmt.Sprintf("sarama value %d", index)
		partition, offset, err := producer.SendMessage(&sarama.ProducerMessage{
			Topic: topic,
			Key:   sarama.StringEncoder(key),
			Value: sarama.StringEncoder(value),
		})
		check("send message", err)
		produced = append(produced, message{Partition: partition, Offset: offset, Key: key, Value: value})
	}
	return produced
}

// consume reads every partition from its oldest offset up to the newest one GetOffset reported,
// with a partition consumer of the client's default config (Fetch v0).
func consume(client sarama.Client, topic string, partitions []int32, offsets map[string]partitionOffsets) []message {
	consumer, err := sarama.NewConsumerFromClient(client)
	check("consumer", err)
	defer closeOrFail("consumer close", consumer.Close)

	consumed := []message{}
	for _, partition := range partitions {
		bounds := offsets[strconv.Itoa(int(partition))]
		if bounds.Newest <= bounds.Oldest {
			continue
		}
		partitionConsumer, err := consumer.ConsumePartition(topic, partition, sarama.OffsetOldest)
		check("consume partition", err)
		deadline := time.After(20 * time.Second)
		for done := false; !done; {
			select {
			case next := <-partitionConsumer.Messages():
				received := message{Partition: next.Partition, Offset: next.Offset, Key: string(next.Key), Value: string(next.Value)}
				if !next.Timestamp.IsZero() {
					timestampMs := next.Timestamp.UnixMilli()
					received.TimestampMs = &timestampMs
				}
				consumed = append(consumed, received)
				done = next.Offset+1 >= bounds.Newest
			case <-deadline:
				fail("consume partition", fmt.Errorf("partition %d: no message at offset %d within 20 s", partition, bounds.Newest-1))
			}
		}
		check("partition consumer close", partitionConsumer.Close())
	}
	return consumed
}

// commitAndReadBack marks `committed` for partition 0 of the topic with an offset manager and
// closes it, which commits (OffsetCommit v1, through FindCoordinator v0), then reads the offset
// back with a fresh offset manager (OffsetFetch v1). The one change to the defaults is
// Consumer.Return.Errors: without it Sarama only logs a failed commit, and Close reports nothing.
func commitAndReadBack(brokers []string, topic, group string, committed int64) commitResult {
	config := sarama.NewConfig()
	config.Consumer.Return.Errors = true
	client, err := sarama.NewClient(brokers, config)
	check("offset client", err)
	defer closeOrFail("offset client close", client.Close)

	manager, err := sarama.NewOffsetManagerFromClient(group, client)
	check("offset manager", err)
	partitionManager, err := manager.ManagePartition(topic, 0)
	check("manage partition", err)
	result := commitResult{Committed: committed}
	result.InitialNextOffset, _ = partitionManager.NextOffset()
	partitionManager.MarkOffset(committed, "sarama-legacy")
	// Closing the manager flushes the marked offset (retrying up to Consumer.Offsets.Retry.Max) and
	// then releases the partition manager, whose Close then returns the errors the commits met.
	partitionManager.AsyncClose()
	result.ManagerCloseError = errorText(manager.Close())
	result.PartitionCloseError = errorText(partitionManager.Close())

	reader, err := sarama.NewOffsetManagerFromClient(group, client)
	check("second offset manager", err)
	readBack, err := reader.ManagePartition(topic, 0)
	check("second manage partition", err)
	result.ReadBackOffset, result.ReadBackMetadata = readBack.NextOffset()
	check("second partition close", readBack.Close())
	check("second offset manager close", reader.Close())
	return result
}

func errorText(err error) string {
	if err == nil || err == sarama.ErrNoError {
		return ""
	}
	return err.Error()
}

func closeOrFail(step string, close func() error) {
	check(step, close())
}

func check(step string, err error) {
	if err != nil {
		fail(step, err)
	}
}

func fail(step string, err error) {
	fmt.Fprintf(os.Stderr, "sarama-legacy: %s: %v\n", step, err)
	os.Exit(1)
}
