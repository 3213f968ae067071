// Workspace files as `meterdesk-server workspace load` reads them, into an
// empty SQLite database at the latest schema. Checked beyond not crashing
// (docs/workspace-format.md): a refused file is a 400 naming its problem and
// leaves nothing behind; a file that loads dumps, and its dump loads into
// another empty database and dumps the same again.
#include "services/engine/Migrator.h"
#include "services/engine/sql/Database.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/workspace/WorkspaceDumper.h"
#include "services/engine/workspace/WorkspaceLoader.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>

#include <memory>
#include <utility>

using namespace md;
using namespace Qt::StringLiterals;
using engine::Dialect;

namespace {

QSqlDatabase connectionOf(engine::Database &database)
{
    auto db = database.connection();
    if (!db)
        qFatal("cannot open a scratch database: %s", qPrintable(db.error().message));
    return db.value();
}

// A database file of its own, removed with it.
class Scratch final
{
public:
    explicit Scratch(QString path)
        : m_path(std::move(path))
        , m_database(std::make_unique<engine::Database>(m_path))
    {}
    ~Scratch()
    {
        m_database.reset();
        for (const char *suffix : {"", "-wal", "-shm"})
            QFile::remove(m_path + QLatin1StringView(suffix));
    }
    Q_DISABLE_COPY_MOVE(Scratch)

    QSqlDatabase connection() { return connectionOf(*m_database); }

private:
    QString m_path;
    std::unique_ptr<engine::Database> m_database;
};

// Empty databases copied from one migrated once: migrating each would take
// most of the time of an input.
class EmptyDatabases final
{
public:
    EmptyDatabases()
    {
        engine::Database database(m_dir.filePath(u"template.db"_s));
        if (auto migrated = engine::Migrator::migrate(connectionOf(database), Dialect::Sqlite);
            !migrated)
            qFatal("cannot migrate a scratch database: %s", qPrintable(migrated.error().message));
    } // closing it checkpoints the whole schema into the file

    std::unique_ptr<Scratch> take()
    {
        const QString path = m_dir.filePath(u"%1.db"_s.arg(++m_taken));
        if (!QFile::copy(m_dir.filePath(u"template.db"_s), path))
            qFatal("cannot copy the template database to %s", qPrintable(path));
        return std::make_unique<Scratch>(path);
    }
    QString filePath(const QString &name) const { return m_dir.filePath(name); }

private:
    QTemporaryDir m_dir;
    quint64 m_taken = 0;
};

QByteArray text(const api::JsonValue &workspace)
{
    return workspace.toJson(true);
}

// Loads `path` into `target`; false when refused, as a refusal must be.
bool loadRefused(Scratch &target, const QString &path)
{
    const QSqlDatabase db = target.connection();
    const auto loaded = engine::WorkspaceLoader::loadFile(db, Dialect::Sqlite, path,
                                                          QDateTime::currentMSecsSinceEpoch());
    if (loaded)
        return false;
    if (loaded.error().status != 400)
        qFatal("refused with %d %s: %s", loaded.error().status, qPrintable(loaded.error().code),
               qPrintable(loaded.error().message));
    auto left = engine::queryRows(db, u"SELECT COUNT(*) FROM organizations"_s, {});
    if (!left || left.value().first().first().toLongLong() != 0)
        qFatal("a refused workspace left organizations behind");
    return true;
}

} // namespace

// Qt SQL loads its drivers only with an application object.
extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static QCoreApplication app(*argc, *argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    // Not destroyed at exit, where the statement cache a database clears may be gone.
    static EmptyDatabases *empties = new EmptyDatabases;
    // Kept while inputs are refused (they roll back), replaced after one loads.
    static Scratch *empty = nullptr;
    if (!empty)
        empty = empties->take().release();

    const QString path = empties->filePath(u"workspace.json"_s);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(reinterpret_cast<const char *>(data), qint64(size)) != qint64(size))
        qFatal("cannot write %s", qPrintable(path));
    file.close();
    if (loadRefused(*empty, path))
        return 0;

    const std::unique_ptr<Scratch> first(std::exchange(empty, nullptr));
    const auto dumped = engine::WorkspaceDumper::dump(first->connection());
    if (!dumped)
        qFatal("a loaded workspace does not dump: %s", qPrintable(dumped.error().message));
    const std::unique_ptr<Scratch> second = empties->take();
    const auto reloaded = engine::WorkspaceLoader::load(
        second->connection(), Dialect::Sqlite, dumped.value(), QDateTime::currentMSecsSinceEpoch());
    if (!reloaded)
        qFatal("the dump of a loaded workspace does not load: %s\n%s",
               qPrintable(reloaded.error().message), text(dumped.value()).constData());
    const auto again = engine::WorkspaceDumper::dump(second->connection());
    if (!again || again.value() != dumped.value())
        qFatal("a dump loaded again dumps differently:\n%s\n---\n%s",
               text(dumped.value()).constData(),
               again ? text(again.value()).constData() : "(no dump)");
    return 0;
}
