// Shared set-up for engine tests: a fresh database, an engine on a clock the
// test controls, and the small fixture workspace loaded into it.
#pragma once

#include "services/engine/Engine.h"
#include "tests/support/JsonEdit.h"
#include "tests/support/TestDatabase.h"

#include <QFile>
#include <QTest>

#include <memory>

namespace md::test {

inline api::JsonValue readJsonFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return jsonValue(file.readAll());
}

inline api::JsonValue smallWorkspace()
{
    return readJsonFile(QStringLiteral(MD_TEST_DATA_DIR "/small.json"));
}

struct EngineFixture
{
    TestDatabase database;
    std::shared_ptr<qint64> now = std::make_shared<qint64>(10000);
    std::unique_ptr<engine::Engine> engine;

    // Returns an empty string when ready, else what went wrong.
    QString open()
    {
        if (!database.error().isEmpty())
            return database.error();
        engine =
            std::make_unique<engine::Engine>(database.location(), [clock = now] { return *clock; });
        if (auto opened = engine->open(); !opened)
            return opened.error().message;
        return {};
    }
};

} // namespace md::test

#define MD_OPEN_FIXTURE(fixture)                                                                   \
    do {                                                                                           \
        const QString problem = (fixture).open();                                                  \
        QVERIFY2(problem.isEmpty(), qPrintable(problem));                                          \
    } while (false)
