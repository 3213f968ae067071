#include "services/server/Metrics.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QLocale>

#include <sys/resource.h>
#include <unistd.h>

namespace md::server {

namespace {

QByteArray number(double value)
{
    return QByteArray::number(value, 'g', QLocale::FloatingPointShortest);
}

// A label value as the exposition format wants it: \, " and newline escaped.
QByteArray labelValue(const QByteArray &value)
{
    QByteArray escaped = value;
    escaped.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n");
    return escaped;
}

} // namespace

void Metrics::observe(const QByteArray &route, int status, qint64 micros)
{
    const double seconds = double(micros) / 1e6;
    const std::lock_guard lock(m_mutex);
    ++m_requests[route + '\n' + QByteArray::number(status)];
    Latency &latency = m_latency[route];
    for (std::size_t i = 0; i < LatencyBuckets.size(); ++i)
        if (seconds <= LatencyBuckets[i]) {
            ++latency.atMost[i];
            break;
        }
    ++latency.count;
    latency.sum += seconds;
}

void Metrics::addSource(Source source)
{
    const std::lock_guard lock(m_mutex);
    m_sources.push_back(std::move(source));
}

void Metrics::family(QByteArray &out, const char *name, const char *type, const char *help)
{
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
}

void Metrics::sample(QByteArray &out, const char *name, const QByteArray &labels, double value)
{
    out.append(name);
    if (!labels.isEmpty())
        out.append('{').append(labels).append('}');
    out.append(' ').append(number(value)).append('\n');
}

QByteArray Metrics::exposition() const
{
    QByteArray out;
    std::vector<Source> sources;
    {
        const std::lock_guard lock(m_mutex);
        family(out, "meterdesk_http_requests_total", "counter",
               "API requests answered, by route and status.");
        for (auto it = m_requests.cbegin(); it != m_requests.cend(); ++it) {
            const auto parts = it.key().split('\n');
            sample(out, "meterdesk_http_requests_total",
                   "route=\"" + labelValue(parts.at(0)) + "\",status=\"" + parts.at(1) + '"',
                   double(it.value()));
        }
        family(out, "meterdesk_http_request_duration_seconds", "histogram",
               "Time from a request read to its answer handed to the network, by route.");
        for (auto it = m_latency.cbegin(); it != m_latency.cend(); ++it) {
            const QByteArray route = "route=\"" + labelValue(it.key()) + '"';
            quint64 cumulative = 0;
            for (std::size_t i = 0; i < LatencyBuckets.size(); ++i) {
                cumulative += it.value().atMost[i];
                sample(out, "meterdesk_http_request_duration_seconds_bucket",
                       route + ",le=\"" + number(LatencyBuckets[i]) + '"', double(cumulative));
            }
            sample(out, "meterdesk_http_request_duration_seconds_bucket", route + ",le=\"+Inf\"",
                   double(it.value().count));
            sample(out, "meterdesk_http_request_duration_seconds_sum", route, it.value().sum);
            sample(out, "meterdesk_http_request_duration_seconds_count", route,
                   double(it.value().count));
        }
        // track_tokens answered 200 waited for their batch; 204 were queued.
        family(out, "meterdesk_track_calls_total", "counter",
               "balances.track_tokens calls answered, synchronous (200) or queued (204).");
        const QByteArray track = "/v1/balances.track_tokens\n";
        sample(out, "meterdesk_track_calls_total", "mode=\"sync\"",
               double(m_requests.value(track + "200")));
        sample(out, "meterdesk_track_calls_total", "mode=\"async\"",
               double(m_requests.value(track + "204")));
        sources = m_sources;
    }
    for (const Source &source : sources)
        source(out);
    processFamilies(out);
    return out;
}

void Metrics::processFamilies(QByteArray &out)
{
    // /proc/self/stat: fields after the command's closing parenthesis.
    QFile statFile(QStringLiteral("/proc/self/stat"));
    if (statFile.open(QIODevice::ReadOnly)) {
        const QByteArray stat = statFile.readAll();
        const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
        const double ticks = double(sysconf(_SC_CLK_TCK));
        const long pageSize = sysconf(_SC_PAGESIZE);
        if (fields.size() > 22) {
            // utime and stime are fields 14 and 15 (1-based), here 11 and 12.
            family(out, "process_cpu_seconds_total", "counter",
                   "User and system CPU time spent in seconds.");
            sample(out, "process_cpu_seconds_total", {},
                   (fields.at(11).toDouble() + fields.at(12).toDouble()) / ticks);
            family(out, "process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.");
            sample(out, "process_virtual_memory_bytes", {}, fields.at(20).toDouble());
            family(out, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.");
            sample(out, "process_resident_memory_bytes", {},
                   fields.at(21).toDouble() * double(pageSize));
            QFile uptime(QStringLiteral("/proc/uptime"));
            if (uptime.open(QIODevice::ReadOnly)) {
                const double up = uptime.readAll().split(' ').value(0).toDouble();
                const double started = double(QDateTime::currentMSecsSinceEpoch()) / 1000.0 - up +
                                       fields.at(19).toDouble() / ticks;
                family(out, "process_start_time_seconds", "gauge",
                       "Start time of the process since unix epoch in seconds.");
                sample(out, "process_start_time_seconds", {}, started);
            }
        }
    }
    family(out, "process_open_fds", "gauge", "Number of open file descriptors.");
    sample(out, "process_open_fds", {},
           double(QDir(QStringLiteral("/proc/self/fd"))
                      .entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot)
                      .size()));
    rlimit files{};
    if (getrlimit(RLIMIT_NOFILE, &files) == 0) {
        family(out, "process_max_fds", "gauge", "Maximum number of open file descriptors.");
        sample(out, "process_max_fds", {}, double(files.rlim_cur));
    }
}

} // namespace md::server
