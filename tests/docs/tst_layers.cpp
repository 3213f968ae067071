// The layer rule of docs/architecture.md, checked on the sources: app above
// views above models above services (views use the API's types, nothing else
// of services); inside services, server, remote and
// embedded above engine, http and backend, all above api. Every #include and
// every meterdesk_* library a CMakeLists.txt links must run downwards, and
// the library graph that architecture.md draws must be the one CMake builds.
// Inside the engine, its rooms' table ("Inside the engine") holds the same
// way, and no two components (a header with its .cpp) include each other,
// however far round; inside the console, models/ and views/ have rooms of
// their own ("Inside the console"), held the same way.
#include <QDirIterator>
#include <QFile>
#include <QMap>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include <functional>

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

// Inside the engine: each room and the rooms below it that it may include
// (docs/architecture.md, "Inside the engine"). The root (the files directly
// in services/engine) may include every room; no room includes the root.
const QMap<QString, QSet<QString>> &rooms()
{
    static const QSet<QString> base{u"sql"_s, u"pricing"_s, u"ids"_s, u"charges"_s};
    static const QSet<QString> told = base + QSet<QString>{u"webhooks"_s};
    static const QSet<QString> state = told + QSet<QString>{u"balances"_s, u"controls"_s};
    static const QSet<QString> ledger = state + QSet<QString>{u"ledger"_s};
    static const QSet<QString> clock = ledger + QSet<QString>{u"clock"_s};
    static const QSet<QString> owners = clock + QSet<QString>{u"customers"_s};
    static const QMap<QString, QSet<QString>> table{
        {u"sql"_s, {}},
        {u"pricing"_s, {}},
        {u"charges"_s, {u"pricing"_s}},
        {u"ids"_s, {u"sql"_s}},
        {u"webhooks"_s, {u"sql"_s, u"ids"_s}},
        {u"balances"_s, base},
        {u"controls"_s, told},
        {u"ledger"_s, state},
        {u"processors"_s, owners},
        {u"clock"_s, ledger},
        {u"customers"_s, clock},
        {u"statements"_s, owners},
        {u"track"_s, clock},
        {u"products"_s, owners},
        {u"access"_s, owners + QSet<QString>{u"processors"_s}},
        {u"workspace"_s,
         owners + QSet<QString>{u"track"_s, u"products"_s, u"access"_s, u"statements"_s}},
    };
    return table;
}

// Headers that only their own room includes.
const QSet<QString> &privateHeaders()
{
    static const QSet<QString> headers{u"balances/BalanceScan.h"_s,
                                       u"balances/BalanceRowReader.h"_s,
                                       u"track/TrackBatchState.h"_s,
                                       u"track/CallPlan.h"_s,
                                       u"track/Deducter.h"_s,
                                       u"track/QueuedCalls.h"_s,
                                       u"customers/StoredPlan.h"_s,
                                       u"customers/PlanAttacher.h"_s,
                                       u"products/RecordDiff.h"_s,
                                       u"workspace/WorkspaceLoadState.h"_s,
                                       u"workspace/ProductLoader.h"_s,
                                       u"workspace/CustomerLoader.h"_s,
                                       u"workspace/DemoProducts.h"_s,
                                       u"workspace/StatementLoader.h"_s,
                                       u"workspace/StatementDumper.h"_s,
                                       u"workspace/DumpRows.h"_s};
    return headers;
}

const QString EnginePrefix = u"services/engine/"_s;

// "services/engine/sql/Sql.h" -> "sql"; the root's files -> "".
QString roomOf(const QString &path)
{
    const QStringList parts = path.mid(EnginePrefix.size()).split(u'/');
    return parts.size() > 1 ? parts.first() : QString();
}

// What is wrong with `from` (a source path) including `included`, by the
// rooms' rule; empty when nothing is.
QString roomViolation(const QString &from, const QString &included)
{
    if (!included.startsWith(EnginePrefix))
        return {};
    const bool inside = from.startsWith(EnginePrefix);
    const QString source = inside ? roomOf(from) : QString();
    const QString target = roomOf(included);
    if (privateHeaders().contains(included.mid(EnginePrefix.size())) &&
        (!inside || source != target))
        return from + u" includes "_s + included + u", private to "_s + target + u'/';
    if (!inside || source.isEmpty() || source == target)
        return {};
    if (target.isEmpty())
        return from + u" includes the root's "_s + included;
    if (!rooms().contains(source) || !rooms().value(source).contains(target))
        return from + u" ("_s + source + u"/) includes "_s + included + u" ("_s + target +
               u"/), which its room may not";
    return {};
}

// "services/engine/sql/Sql.cpp" and ".h" -> "services/engine/sql/Sql". The
// track batch keeps its state and its writes in files of their own.
QString componentOf(const QString &path)
{
    QString component = path.section(u'.', 0, 0);
    for (const auto part : {"TrackBatchState"_L1, "TrackBatchWrites"_L1})
        if (component.endsWith(part))
            component.chop(part.size() - QLatin1StringView("TrackBatch").size());
    return component;
}

// The cycles of a graph of components, each as "a -> b -> a".
QStringList cyclesOf(const QMap<QString, QSet<QString>> &graph)
{
    QStringList cycles;
    QMap<QString, int> state; // 1: on the path being walked, 2: done
    QStringList path;
    std::function<void(const QString &)> walk = [&](const QString &node) {
        state[node] = 1;
        path.append(node);
        for (const QString &next : graph.value(node)) {
            if (state.value(next) == 1)
                cycles.append((path.mid(path.indexOf(next)) + QStringList{next}).join(u" -> "_s));
            else if (state.value(next) == 0)
                walk(next);
        }
        path.removeLast();
        state[node] = 2;
    };
    for (auto it = graph.cbegin(); it != graph.cend(); ++it)
        if (state.value(it.key()) == 0)
            walk(it.key());
    return cycles;
}

// Inside the console: the rooms of models/ and views/ (the same names in
// both) and the rooms below each that it may include (docs/architecture.md,
// "Inside the console"). A room's views may use its own models and those
// of the rooms below; common/ uses nothing of the others.
const QMap<QString, QSet<QString>> &consoleRooms()
{
    static const QSet<QString> base{u"common"_s, u"connection"_s};
    static const QSet<QString> imports = base + QSet<QString>{u"import"_s};
    static const QSet<QString> usage = imports + QSet<QString>{u"usage"_s};
    static const QSet<QString> customers = usage + QSet<QString>{u"customers"_s};
    static const QMap<QString, QSet<QString>> table{
        {u"common"_s, {}},
        {u"connection"_s, {u"common"_s}},
        {u"import"_s, base},
        {u"usage"_s, imports},
        {u"customers"_s, usage},
        {u"balances"_s, customers},
        {u"admin"_s, base},
        {u"operator"_s, base},
        {u"revenue"_s, base},
        {u"window"_s,
         customers + QSet<QString>{u"balances"_s, u"admin"_s, u"operator"_s, u"revenue"_s}},
    };
    return table;
}

// "views/balances/BalancesPage.cpp" -> "balances"; outside the console: "".
QString consoleRoomOf(const QString &path)
{
    const QStringList parts = path.split(u'/');
    if (parts.size() < 3 || (parts.first() != "models"_L1 && parts.first() != "views"_L1))
        return {};
    return parts.at(1);
}

// What is wrong with `from` including `included` by the console's rooms'
// rule; empty when nothing is.
QString consoleRoomViolation(const QString &from, const QString &included)
{
    const QString source = consoleRoomOf(from);
    const QString target = consoleRoomOf(included);
    if (source.isEmpty() || target.isEmpty() || source == target)
        return {};
    if (!consoleRooms().value(source).contains(target))
        return from + u" ("_s + source + u"/) includes "_s + included + u" ("_s + target +
               u"/), which its room may not"_s;
    return {};
}

// A console component: a header with its sources, where a class keeps
// parts in files of their own (MainWindowScopes.cpp is MainWindow's).
QString consoleComponentOf(const QString &path)
{
    static const QList<std::pair<QString, QString>> parts{
        {u"window/MainWindowScopes"_s, u"window/MainWindow"_s},
        {u"balances/BalanceListCells"_s, u"balances/BalanceListModel"_s},
        {u"admin/ProductChanges"_s, u"admin/ProductEdit"_s}};
    QString component = path.section(u'.', 0, 0);
    for (const auto &[part, owner] : parts)
        if (component.endsWith(part))
            component = component.chopped(part.size()) + owner;
    return component;
}

// Every #include "…" of the tree's sources: (source path, included path).
QList<std::pair<QString, QString>> includesOf(const QStringList &folders)
{
    static const QRegularExpression include(u"^\\s*#\\s*include\\s+\"([^\"]+)\""_s,
                                            QRegularExpression::MultilineOption);
    QList<std::pair<QString, QString>> found;
    for (const QString &folder : folders) {
        QDirIterator it(sourceDir() + u'/' + folder, {u"*.h"_s, u"*.cpp"_s}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            const QString text = readAll(path);
            for (auto match = include.globalMatch(text); match.hasNext();)
                found.append({path.mid(sourceDir().size() + 1), match.next().captured(1)});
        }
    }
    return found;
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
            QDirIterator it(sourceDir() + u'/' + rule.key(), {u"*.h"_s, u"*.cpp"_s}, QDir::Files,
                            QDirIterator::Subdirectories);
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

    // The rooms' table is itself a ladder, and every include follows it.
    void engineRoomsRunDownwards()
    {
        QMap<QString, QSet<QString>> roomGraph;
        for (auto it = rooms().cbegin(); it != rooms().cend(); ++it)
            roomGraph.insert(it.key(), it.value());
        QVERIFY2(cyclesOf(roomGraph).isEmpty(), "the rooms' table has a cycle");
        QVERIFY(rooms().value(u"sql"_s).isEmpty() && rooms().value(u"pricing"_s).isEmpty());

        const auto includes = includesOf({u"app"_s, u"views"_s, u"models"_s, u"services"_s,
                                          u"tests"_s, u"bench"_s, u"fuzz"_s, u"tools"_s});
        QStringList wrong;
        QSet<QString> roomsSeen;
        for (const auto &[from, included] : includes) {
            if (from.startsWith(EnginePrefix))
                roomsSeen.insert(roomOf(from));
            if (const QString problem = roomViolation(from, included); !problem.isEmpty())
                wrong.append(problem);
        }
        QVERIFY2(roomsSeen.size() == rooms().size() + 1, "the engine's rooms were not found");
        QVERIFY2(wrong.isEmpty(),
                 qPrintable(u"includes against the rooms' rule:\n"_s + wrong.join(u'\n')));
    }

    // No two components of the engine or the api include each other,
    // however far round.
    void noComponentCycles()
    {
        QMap<QString, QSet<QString>> graph;
        for (const auto &[from, included] : includesOf({u"services/engine"_s, u"services/api"_s})) {
            if (!included.startsWith(u"services/"_s))
                continue;
            const QString a = componentOf(from);
            const QString b = componentOf(included);
            if (a != b)
                graph[a].insert(b);
        }
        QVERIFY2(graph.size() > 60,
                 qPrintable(u"the components were not found: %1"_s.arg(graph.size())));
        const QStringList cycles = cyclesOf(graph);
        QVERIFY2(cycles.isEmpty(), qPrintable(u"include cycles:\n"_s + cycles.join(u'\n')));
    }

    // Inside the console: every file in a room of the table, each include
    // within its room, into common/ or a room below it, and no two
    // components including each other, however far round.
    void consoleRoomsRunDownwards()
    {
        QMap<QString, QSet<QString>> roomGraph;
        for (auto it = consoleRooms().cbegin(); it != consoleRooms().cend(); ++it)
            roomGraph.insert(it.key(), it.value());
        QVERIFY2(cyclesOf(roomGraph).isEmpty(), "the console rooms' table has a cycle");
        QSet<QString> seen;
        QStringList outside;
        for (const QString &top : {u"models"_s, u"views"_s}) {
            QDirIterator it(sourceDir() + u'/' + top, {u"*.h"_s, u"*.cpp"_s}, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = it.next().mid(sourceDir().size() + 1);
                const QString room = consoleRoomOf(path);
                if (!consoleRooms().contains(room))
                    outside.append(path);
                seen.insert(room);
            }
        }
        QVERIFY2(outside.isEmpty(),
                 qPrintable(u"files in no room of the table:\n"_s + outside.join(u'\n')));
        QCOMPARE(seen.size(), consoleRooms().size());

        QStringList wrong;
        QMap<QString, QSet<QString>> graph;
        const auto includes = includesOf({u"models"_s, u"views"_s});
        for (const auto &[from, included] : includes) {
            if (const QString problem = consoleRoomViolation(from, included); !problem.isEmpty())
                wrong.append(problem);
            if (consoleRoomOf(included).isEmpty())
                continue;
            const QString a = consoleComponentOf(from);
            const QString b = consoleComponentOf(included);
            if (a != b)
                graph[a].insert(b);
        }
        QVERIFY2(wrong.isEmpty(),
                 qPrintable(u"includes against the console rooms' rule:\n"_s + wrong.join(u'\n')));
        QVERIFY2(graph.size() > 80,
                 qPrintable(u"the console's components were not found: %1"_s.arg(graph.size())));
        const QStringList cycles = cyclesOf(graph);
        QVERIFY2(cycles.isEmpty(), qPrintable(u"include cycles:\n"_s + cycles.join(u'\n')));
    }

    // The main window is an assembly: no function of it is longer than 60
    // lines, signature to closing brace.
    void theMainWindowIsAnAssembly()
    {
        static const QRegularExpression definition(u"^\\S.*\\bMainWindow::"_s);
        int functions = 0;
        QStringList long_;
        for (const QString &file :
             {u"views/window/MainWindow.cpp"_s, u"views/window/MainWindowScopes.cpp"_s}) {
            const QStringList lines = readAll(sourceDir() + u'/' + file).split(u'\n');
            qsizetype start = -1;
            for (qsizetype i = 0; i < lines.size(); ++i) {
                if (start < 0 && definition.match(lines.at(i)).hasMatch())
                    start = i;
                else if (start >= 0 && lines.at(i) == "}"_L1) {
                    ++functions;
                    if (i - start + 1 > 60)
                        long_.append(lines.at(start) + u": %1 lines"_s.arg(i - start + 1));
                    start = -1;
                }
            }
        }
        QVERIFY2(functions > 20, "MainWindow's functions were not found");
        QVERIFY2(long_.isEmpty(), qPrintable(long_.join(u'\n')));
    }

    // docs/architecture.md names every room of the console's table.
    void architectureNamesTheConsoleRooms()
    {
        const QString doc = readAll(sourceDir() + u"/docs/architecture.md"_s);
        const qsizetype inside = doc.indexOf(u"## Inside the console"_s);
        QVERIFY2(inside >= 0, "docs/architecture.md has no \"Inside the console\"");
        const QString section = doc.mid(inside, doc.indexOf(u"\n## "_s, inside + 1) - inside);
        for (const QString &room : consoleRooms().keys())
            QVERIFY2(section.contains(u"| `"_s + room + u"/` |"_s), qPrintable(room));
    }

    // The checks catch what they are for: planted wrong arrows.
    void plantedWrongArrowsAreCaught()
    {
        QVERIFY(!roomViolation(u"services/engine/sql/Sql.cpp"_s,
                               u"services/engine/ledger/AuditTrail.h"_s)
                     .isEmpty()); // a lower room up into another
        QVERIFY(!roomViolation(u"services/engine/ledger/AuditTrail.h"_s,
                               u"services/engine/Engine.h"_s)
                     .isEmpty()); // a room into the root
        QVERIFY(!roomViolation(u"services/engine/products/ProductUpdater.cpp"_s,
                               u"services/engine/workspace/ProductLoader.h"_s)
                     .isEmpty()); // a private header from another room
        QVERIFY(!roomViolation(u"tests/engine/tst_x.cpp"_s, u"services/engine/track/CallPlan.h"_s)
                     .isEmpty()); // and from outside the engine
        QVERIFY(roomViolation(u"services/engine/track/TrackBatch.cpp"_s,
                              u"services/engine/ledger/BalanceLedger.h"_s)
                    .isEmpty()); // downwards is fine
        QVERIFY(
            roomViolation(u"services/engine/Engine.cpp"_s, u"services/engine/track/TrackWriter.h"_s)
                .isEmpty());
        QVERIFY(!consoleRoomViolation(u"views/admin/ProductsPage.cpp"_s,
                                      u"views/balances/BalancesPage.h"_s)
                     .isEmpty()); // sideways, between sibling rooms
        QVERIFY(!consoleRoomViolation(u"models/common/AmountFormat.cpp"_s,
                                      u"models/balances/BalanceFilter.h"_s)
                     .isEmpty()); // common/ up into a room
        QVERIFY(!consoleRoomViolation(u"views/customers/CustomersPage.cpp"_s,
                                      u"models/balances/BalanceFilter.h"_s)
                     .isEmpty()); // a room up into one above it
        QVERIFY(consoleRoomViolation(u"views/balances/BalanceDetailPane.cpp"_s,
                                     u"models/customers/ControlsSource.h"_s)
                    .isEmpty()); // downwards is fine
        QVERIFY(
            consoleRoomViolation(u"views/window/MainWindow.cpp"_s, u"views/operator/KeysPage.h"_s)
                .isEmpty());
        QCOMPARE(consoleComponentOf(u"views/window/MainWindowScopes.cpp"_s),
                 u"views/window/MainWindow"_s);
        const QMap<QString, QSet<QString>> planted{
            {u"sql/Sql"_s, {u"sql/Database"_s}},
            {u"sql/Database"_s, {u"sql/Dialect"_s, u"sql/Sql"_s}}};
        QCOMPARE(cyclesOf(planted).size(), 1);
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
