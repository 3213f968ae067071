#include "services/server/RequestLog.h"

#include "services/api/JsonWriter.h"

#include <QDateTime>
#include <QFile>
#include <QRandomGenerator>

#include <algorithm>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace md::server {

using namespace Qt::StringLiterals;

namespace {

constexpr qsizetype FlushAt = 64 * 1024;
constexpr auto FlushEvery = std::chrono::milliseconds(100);

bool usableCharacter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == ':' || c == '-';
}

// The log and the echo never carry a secret (docs/operations.md, "Request
// log"), though a secret may be made of an id's characters: a key or a
// webhook secret shows by its prefix, a portal link or a JWT by "eyJ"
// (base64url JSON), another generated token by a long run of letters and
// digits in both cases (UUIDs, hex ids and ULIDs have none). `id` holds only
// usable characters.
bool looksSecret(const QByteArray &id)
{
    const QByteArray lower = id.toLower();
    if (lower.contains("sk_test_") || lower.contains("sk_live_") || lower.contains("whsec_") ||
        id.contains("eyJ"))
        return true;
    // The runs of letters and digits between separators.
    constexpr qsizetype LongRun = 16;
    QByteArray runs = id;
    std::replace_if(
        runs.begin(), runs.end(), [](char c) { return c == '_' || c == ':' || c == '-'; }, '.');
    for (const QByteArray &run : runs.split('.'))
        if (run.size() >= LongRun && run != run.toLower() && run != run.toUpper())
            return true;
    return false;
}

} // namespace

QByteArray requestIdOf(const QByteArray &sent)
{
    if (!sent.isEmpty() && sent.size() <= 128 &&
        std::all_of(sent.begin(), sent.end(), usableCharacter) && !looksSecret(sent))
        return sent;
    return QByteArray::number(QRandomGenerator::global()->generate64(), 16).rightJustified(16, '0');
}

api::Result<std::unique_ptr<RequestLog>> RequestLog::open(const QString &where)
{
    if (where == "stderr"_L1)
        return std::unique_ptr<RequestLog>(new RequestLog(STDERR_FILENO, false));
    const int fd = ::open(QFile::encodeName(where).constData(),
                          O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
    if (fd < 0)
        return api::ApiError::internal(u"cannot open the request log %1: %2"_s.arg(
            where, QString::fromLocal8Bit(std::strerror(errno))));
    return std::unique_ptr<RequestLog>(new RequestLog(fd, true));
}

RequestLog::RequestLog(int fd, bool ownsFd)
    : m_fd(fd)
    , m_ownsFd(ownsFd)
    , m_flusher([this] { flushLoop(); })
{}

RequestLog::~RequestLog()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_one();
    m_flusher.join();
    if (m_ownsFd)
        ::close(m_fd);
}

QByteArray RequestLog::line(const Entry &entry)
{
    api::JsonWriter writer;
    writer.beginObject()
        .field("time"_L1,
               QDateTime::fromMSecsSinceEpoch(entry.timeMs, Qt::UTC).toString(Qt::ISODateWithMs))
        .field("request_id"_L1, QString::fromLatin1(entry.requestId))
        .field("remote"_L1, entry.remote)
        .field("method"_L1, QString::fromLatin1(entry.method.left(16)))
        .field("route"_L1, QString::fromUtf8(entry.route.left(200)))
        .field("status"_L1, entry.status)
        .field("bytes"_L1, entry.bytes)
        .field("us"_L1, entry.micros);
    if (entry.keyId.isEmpty())
        writer.key("key_id"_L1).null();
    else
        writer.field("key_id"_L1, entry.keyId);
    writer.endObject();
    QByteArray text = writer.take();
    text.append('\n');
    return text;
}

void RequestLog::write(const Entry &entry)
{
    const QByteArray text = line(entry);
    bool full = false;
    {
        const std::lock_guard lock(m_mutex);
        m_pending.append(text);
        full = m_pending.size() >= FlushAt;
    }
    if (full)
        m_wake.notify_one();
}

void RequestLog::flushLoop()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait_for(lock, FlushEvery,
                        [this] { return m_stopping || m_pending.size() >= FlushAt; });
        QByteArray out;
        out.swap(m_pending);
        const bool last = m_stopping;
        lock.unlock();
        writeOut(out);
        if (last)
            return;
        lock.lock();
    }
}

void RequestLog::writeOut(const QByteArray &bytes)
{
    qsizetype done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(m_fd, bytes.constData() + done, std::size_t(bytes.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return; // a full disk loses log lines, never a request
        done += n;
    }
}

} // namespace md::server
