// Prometheus metrics (docs/operations.md, "Metrics"): what the server counts
// as it answers, and the text exposition of those counts with what is read
// at scrape time (the queue, the writer's batches, connections, webhooks,
// the process). Debian has no C++ Prometheus client, and the exposition is
// a few lines of text, so it is written here; promtool checks it in tests.
#pragma once

#include <QByteArray>
#include <QHash>

#include <array>
#include <functional>
#include <mutex>

namespace md::server {

class Metrics final
{
public:
    // Seconds; the last bucket is +Inf.
    static constexpr std::array<double, 12> LatencyBuckets{
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5};

    // One answered request: its route (as docs/openapi.yaml writes it; the
    // path of no route is counted as "unknown"), status and time taken.
    void observe(const QByteArray &route, int status, qint64 micros);

    // Lines appended to the exposition at scrape time (gauges and counters
    // kept elsewhere); each source writes whole metric families.
    using Source = std::function<void(QByteArray &out)>;
    void addSource(Source source);

    QByteArray exposition() const;

    // Writes a family's HELP and TYPE lines.
    static void family(QByteArray &out, const char *name, const char *type, const char *help);
    static void sample(QByteArray &out, const char *name, const QByteArray &labels, double value);
    // The process's CPU, memory, descriptors and start, from /proc/self.
    static void processFamilies(QByteArray &out);

private:
    struct Latency
    {
        std::array<quint64, LatencyBuckets.size()> atMost{};
        quint64 count = 0;
        double sum = 0;
    };
    mutable std::mutex m_mutex;
    QHash<QByteArray, quint64> m_requests; // "route\nstatus"
    QHash<QByteArray, Latency> m_latency;  // by route
    std::vector<Source> m_sources;
};

} // namespace md::server
