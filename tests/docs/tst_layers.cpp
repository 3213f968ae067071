// The layer rule of docs/architecture.md, checked on the sources: app above
// views above models above services (views use the API's types, nothing else
// of services); inside services, server, remote and
// embedded above engine, http and backend, all above api. Every #include and
// every meterdesk_* library a CMakeLists.txt links must run downwards, and
// the library graph that architecture.md draws must be the one CMake builds.
#include <QDirIterator>
#include <QFile>
#include <QMap>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

// What each folder may use, itself included.
const QMap<QString, QSet<QString>> &allowed()
{
    static const QSet<QString> services{
        u"services/api"_s,      u"services/backend"_s, u"services/engine"_s, u"services/http"_s,
        u"services/embedded"_s, u"services/remote"_s,  u"services/server"_s};
    static const QMap<QString, QSet<QString>> rules{
        {u"app"_s, QSet<QString>{u"app"_s, u"views"_s, u"models"_s} + services},
        {u"views"_s, {u"views"_s, u"models"_s, u"services/api"_s}},
        {u"models"_s, QSet<QString>{u"models"_s} + services},
        {u"services/server"_s,
         {u"services/server"_s, u"services/engine"_s, u"services/http"_s, u"services/api"_s}},
        {u"services/remote"_s, {u"services/remote"_s, u"services/backend"_s, u"services/api"_s}},
        {u"services/embedded"_s,
         {u"services/embedded"_s, u"services/backend"_s, u"services/engine"_s, u"services/api"_s}},
        {u"services/engine"_s, {u"services/engine"_s, u"services/api"_s}},
        {u"services/http"_s, {u"services/http"_s, u"services/api"_s}},
        {u"services/backend"_s, {u"services/backend"_s, u"services/api"_s}},
        {u"services/api"_s, {u"services/api"_s}},
    };
    return rules;
}

// "services/engine/Engine.h" -> "services/engine"; "views/X.h" -> "views".
QString layerOf(const QString &path)
{
    const QStringList parts = path.split(u'/');
    if (parts.size() >= 3 && parts.first() == "services"_L1)
        return parts.at(0) + u'/' + parts.at(1);
    return parts.size() >= 2 ? parts.first() : QString();
}

QString readAll(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

QString sourceDir()
{
    return QStringLiteral(MD_SOURCE_DIR);
}

// library -> the meterdesk_* libraries its CMakeLists.txt links.
QMap<QString, QSet<QString>> cmakeGraph(QMap<QString, QString> *folderOf)
{
    static const QRegularExpression link(
        u"target_link_libraries\\(\\s*(meterdesk_\\w+)([^)]*)\\)"_s);
    static const QRegularExpression library(u"\\bmeterdesk_(?!compile_settings)\\w+"_s);
    QMap<QString, QSet<QString>> graph;
    for (const QString &folder : allowed().keys()) {
        const QString text = readAll(sourceDir() + u'/' + folder + u"/CMakeLists.txt"_s);
        for (auto match = link.globalMatch(text); match.hasNext();) {
            const auto found = match.next();
            const QString target = found.captured(1);
            if (!target.startsWith("meterdesk_"_L1) || target == "meterdesk_compile_settings"_L1)
                continue;
            folderOf->insert(target, folder);
            QSet<QString> &uses = graph[target];
            for (auto used = library.globalMatch(found.captured(2)); used.hasNext();)
                uses.insert(used.next().captured(0));
        }
    }
    return graph;
}

} // namespace

class TestLayers final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void includesRunDownwards()
    {
        static const QRegularExpression include(u"^\\s*#\\s*include\\s+\"([^\"]+)\""_s,
                                                QRegularExpression::MultilineOption);
        QStringList wrong;
        int files = 0;
        for (auto rule = allowed().cbegin(); rule != allowed().cend(); ++rule) {
            QDirIterator it(sourceDir() + u'/' + rule.key(), {u"*.h"_s, u"*.cpp"_s}, QDir::Files);
            while (it.hasNext()) {
                const QString path = it.next();
                ++files;
                const QString text = readAll(path);
                for (auto match = include.globalMatch(text); match.hasNext();) {
                    const QString included = match.next().captured(1);
                    const QString layer = layerOf(included);
                    if (!allowed().contains(layer))
                        continue; // generated (moc, ui) or a library's own header
                    if (!rule.value().contains(layer))
                        wrong.append(path.mid(sourceDir().size() + 1) + u" includes "_s + included);
                }
            }
        }
        QVERIFY2(files > 100, "the sources were not found");
        QVERIFY2(wrong.isEmpty(),
                 qPrintable(u"includes against the layer rule:\n"_s + wrong.join(u'\n')));
    }

    void librariesLinkDownwards()
    {
        QMap<QString, QString> folderOf;
        const auto graph = cmakeGraph(&folderOf);
        QVERIFY2(graph.size() >= 9, "the libraries were not found");
        QStringList wrong;
        for (auto it = graph.cbegin(); it != graph.cend(); ++it)
            for (const QString &used : it.value()) {
                const QString usedFolder = folderOf.value(used);
                if (usedFolder.isEmpty() ||
                    !allowed().value(folderOf.value(it.key())).contains(usedFolder))
                    wrong.append(it.key() + u" links "_s + used);
            }
        QVERIFY2(wrong.isEmpty(),
                 qPrintable(u"links against the layer rule:\n"_s + wrong.join(u'\n')));
    }

    void architectureDrawsTheGraphCMakeBuilds()
    {
        // docs/architecture.md holds one line per library in its graph block:
        // "meterdesk_x -> meterdesk_y, meterdesk_z" (or "-> nothing").
        const QString doc = readAll(sourceDir() + u"/docs/architecture.md"_s);
        static const QRegularExpression line(u"^(meterdesk_\\w+) -> (.*)$"_s,
                                             QRegularExpression::MultilineOption);
        QMap<QString, QSet<QString>> drawn;
        for (auto match = line.globalMatch(doc); match.hasNext();) {
            const auto found = match.next();
            QSet<QString> uses;
            for (const QString &used : found.captured(2).split(u',', Qt::SkipEmptyParts))
                if (used.trimmed() != "nothing"_L1)
                    uses.insert(used.trimmed());
            drawn.insert(found.captured(1), uses);
        }
        QMap<QString, QString> folderOf;
        const auto built = cmakeGraph(&folderOf);
        for (auto it = built.cbegin(); it != built.cend(); ++it)
            QVERIFY2(drawn.value(it.key()) == it.value() && drawn.contains(it.key()),
                     qPrintable(u"docs/architecture.md draws %1 -> %2; CMake links %3"_s.arg(
                         it.key(), QStringList(drawn.value(it.key()).values()).join(u", "_s),
                         QStringList(it.value().values()).join(u", "_s))));
        QCOMPARE(drawn.size(), built.size());
    }
};

QTEST_GUILESS_MAIN(TestLayers)
#include "tst_layers.moc"
