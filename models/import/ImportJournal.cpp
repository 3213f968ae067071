#include "models/import/ImportJournal.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

// Journal words stay English whatever the interface language; Unchanged
// keeps the word "skipped" that journals of earlier builds hold.
constexpr QLatin1StringView OutcomeKeys[ImportOutcomeCount] = {
    "pending"_L1, "new"_L1, "updated"_L1, "skipped"_L1, "expired"_L1, "mismatch"_L1, "error"_L1};

std::optional<ImportOutcome> outcomeFromKey(const QString &key)
{
    for (int i = 0; i < ImportOutcomeCount; ++i)
        if (key == OutcomeKeys[i])
            return ImportOutcome(i);
    return std::nullopt;
}

api::ApiError journalError(const QString &message)
{
    return api::ApiError::local(u"journal_unwritable"_s, message);
}

} // namespace

QString ImportJournal::pathFor(const QString &sourcePath, const QByteArray &data)
{
    if (!sourcePath.isEmpty())
        return sourcePath + u".meterdesk-journal"_s;
    const QString folder =
        QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + u"/import-journals"_s;
    return folder + u"/pasted-"_s + QString::fromLatin1(hash(data).left(16)) +
           u".meterdesk-journal"_s;
}

QByteArray ImportJournal::hash(const QByteArray &data)
{
    return QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex();
}

ImportJournal::ImportJournal(const QString &path)
    : m_path(path)
    , m_file(path)
{}

api::Result<api::Done> ImportJournal::load()
{
    m_exists = QFileInfo::exists(m_path);
    m_done.clear();
    m_earlier.clear();
    m_finished = false;
    if (!m_exists)
        return api::Done{};
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly))
        return journalError(tr("cannot read the journal %1: %2").arg(m_path, file.errorString()));
    while (!file.atEnd()) {
        const QJsonObject line = QJsonDocument::fromJson(file.readLine()).object();
        if (line.contains(u"journal"_s)) {
            m_target = line.value(u"target"_s).toString();
            m_sourceHash = line.value(u"source_sha256"_s).toString().toLatin1();
            m_startedAt = qint64(line.value(u"started_at"_s).toDouble());
        } else if (line.value(u"finished"_s).toBool()) {
            m_finished = true;
            m_finishedAt = qint64(line.value(u"at"_s).toDouble());
        } else if (line.contains(u"customer_id"_s)) {
            // A line cut short by a crash parses as nothing and is passed over.
            m_finished = false; // a run resumed after a finished one
            if (const auto outcome = outcomeFromKey(line.value(u"result"_s).toString()))
                m_done.insert(line.value(u"customer_id"_s).toString(), *outcome);
        }
    }
    m_earlier = m_done;
    return api::Done{};
}

api::Result<api::Done> ImportJournal::begin(const QString &target, const QByteArray &sourceHash,
                                            bool resume)
{
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    m_finished = false;
    if (!resume) {
        m_done.clear();
        m_earlier.clear();
        if (QFileInfo::exists(m_path)) {
            const QString previous = previousPath();
            QFile::remove(previous);
            if (!QFile::rename(m_path, previous))
                return journalError(tr("cannot set the earlier journal aside as %1").arg(previous));
        }
    }
    if (!m_file.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Text))
        return journalError(
            tr("cannot write the journal %1: %2").arg(m_path, m_file.errorString()));
    if (resume && m_exists) {
        // A line a crash cut short is ended, so the next one parses.
        QFile tail(m_path);
        if (tail.open(QIODevice::ReadOnly) && tail.size() > 0 && tail.seek(tail.size() - 1) &&
            tail.read(1) != "\n")
            return write({});
        return api::Done{};
    }
    m_target = target;
    m_sourceHash = sourceHash;
    m_startedAt = QDateTime::currentMSecsSinceEpoch();
    m_exists = true;
    return write(QJsonObject{{u"journal"_s, u"meterdesk-import"_s},
                             {u"version"_s, 1},
                             {u"target"_s, target},
                             {u"source_sha256"_s, QString::fromLatin1(sourceHash)},
                             {u"started_at"_s, double(m_startedAt)}});
}

api::Result<api::Done> ImportJournal::record(const QString &customerId, int line,
                                             std::optional<ImportOutcome> outcome,
                                             const QString &message)
{
    QJsonObject entry{{u"customer_id"_s, customerId},
                      {u"line"_s, line},
                      {u"result"_s, outcome ? QString(OutcomeKeys[int(*outcome)]) : u"failed"_s},
                      {u"at"_s, double(QDateTime::currentMSecsSinceEpoch())}};
    if (!message.isEmpty())
        entry.insert(u"message"_s, message);
    if (outcome)
        m_done.insert(customerId, *outcome);
    return write(entry);
}

api::Result<api::Done> ImportJournal::finish()
{
    m_finished = true;
    m_finishedAt = QDateTime::currentMSecsSinceEpoch();
    auto written = write(QJsonObject{{u"finished"_s, true}, {u"at"_s, double(m_finishedAt)}});
    m_file.close();
    return written;
}

api::Result<api::Done> ImportJournal::write(const QJsonObject &line)
{
    // Flushed line by line: a crash loses at most the line being written.
    const QByteArray bytes =
        (line.isEmpty() ? QByteArray() : QJsonDocument(line).toJson(QJsonDocument::Compact)) + '\n';
    if (m_file.write(bytes) != bytes.size() || !m_file.flush())
        return journalError(
            tr("cannot write the journal %1: %2").arg(m_path, m_file.errorString()));
    return api::Done{};
}

} // namespace md::models
