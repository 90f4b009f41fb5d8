"""Drives Debian's kafka-python (2.0.2) against a broker for the legacy-format tests.

Usage: kafka_python_legacy.py BOOTSTRAP TOPIC API_VERSION CODEC COUNT

API_VERSION is "probe" (kafka-python asks the broker and infers its version) or a dotted version
such as 0.10.0, which pins the protocol kafka-python speaks (0.10.0: Produce and Fetch v2 with
magic 1 messages; 0.9: Produce and Fetch v1 with magic 0). It produces COUNT keyed records to
partition 0 of TOPIC with CODEC, reads them back from the beginning with a consumer pinned the same
way, and prints one JSON object: the version it used, the produced offsets and what it consumed.
"""
import json
import sys

from kafka import KafkaConsumer, KafkaProducer, TopicPartition


def main():
    bootstrap, topic, api_version, codec, count = sys.argv[1:6]
    count = int(count)
    pinned = {} if api_version == "probe" else {"api_version": tuple(int(p) for p in api_version.split("."))}
    producer = KafkaProducer(
        bootstrap_servers=bootstrap,
        compression_type=None if codec == "none" else codec,
        acks="all",
        linger_ms=20,
        **pinned,
    )
    futures = [
        producer.send(topic, key=("key-%d" % (i % 5)).encode(), value=("value %d %s" % (i, "q" * (i % 30))).encode(), partition=0)
        for i in range(count)
    ]
    producer.flush(30)
    offsets = [future.get(timeout=30).offset for future in futures]
    used = list(producer.config["api_version"])
    producer.close(10)

    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, consumer_timeout_ms=10000, **pinned)
    partition = TopicPartition(topic, 0)
    consumer.assign([partition])
    consumer.seek_to_beginning(partition)
    end = consumer.end_offsets([partition])[partition] if api_version == "probe" or pinned["api_version"] >= (0, 10, 1) else None
    consumed = []
    for message in consumer:
        consumed.append({"offset": message.offset, "key": message.key.decode(), "value": message.value.decode(), "timestamp": message.timestamp})
        if len(consumed) >= count:
            break
    consumer.close()
    print(json.dumps({"apiVersion": used, "offsets": offsets, "endOffset": end, "consumed": consumed}))


if __name__ == "__main__":
    main()
