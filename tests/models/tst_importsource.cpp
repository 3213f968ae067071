// The import wizard's source files: CSV (quotes, separators, line breaks),
// JSON Lines and JSON arrays of billing.import bodies, the column mapping,
// and every row's problems kept beside it, fixable in place.
#include "models/import/ImportSource.h"
#include "services/embedded/EngineBackend.h"
#include "services/engine/workspace/DemoWorkspace.h"
#include <QJsonObject>

#include <QDateTime>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using models::CsvMapping;
using models::ImportFormat;
using models::ImportSource;

class TestImportSource final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void csvFollowsRfc4180()
    {
        QList<int> lines;
        const auto records = ImportSource::parseCsv(
            u"a;\"b;c\";\"say \"\"hi\"\"\"\r\n\r\n1;\"two\nlines\";3\n4;;\n"_s, u';', &lines);
        QCOMPARE(records.size(), 3);
        QCOMPARE(records.at(0), (QStringList{u"a"_s, u"b;c"_s, u"say \"hi\""_s}));
        QCOMPARE(records.at(1), (QStringList{u"1"_s, u"two\nlines"_s, u"3"_s}));
        QCOMPARE(records.at(2), (QStringList{u"4"_s, QString(), QString()}));
        QCOMPARE(lines, (QList<int>{1, 3, 5}));
        QCOMPARE(ImportSource::guessSeparator(u"id;name;email\n"_s), u';');
        QCOMPARE(ImportSource::guessSeparator(u"id\tname\n"_s), u'\t');
    }

    void detectsAndDecodes()
    {
        QCOMPARE(ImportSource::detect(u"x.csv"_s, "{}"), ImportFormat::Csv);
        QCOMPARE(ImportSource::detect(u"x.jsonl"_s, "[]"), ImportFormat::JsonLines);
        QCOMPARE(ImportSource::detect(u"pasted"_s, "  \n[{}]"), ImportFormat::JsonArray);
        QCOMPARE(ImportSource::detect(u"pasted"_s, "\xef\xbb\xbf{\"a\":1}"),
                 ImportFormat::JsonLines);
        QCOMPARE(ImportSource::decode("\xef\xbb\xbf"
                                      "caf\xc3\xa9"),
                 u"café"_s);                                  // UTF-8, BOM dropped
        QCOMPARE(ImportSource::decode("caf\xe9"), u"café"_s); // Latin-1
    }

    void csvRowsKeepTheirProblemsUntilFixed()
    {
        const QString csv = u"Customer_ID,name,email,stripe_id,plan_id,status,usage:api_calls\n"
                            "ann,Ann,ann@example.com,cus_1,pro,active,12.5\n"
                            "bob,Bob,not-an-email,cus_2,pro,paused,-1\n"
                            ",Nobody,,,,,\n"_s;
        const QStringList header = ImportSource::parseCsv(csv, u',').first();
        const CsvMapping mapping = CsvMapping::guess(header);
        QCOMPARE(mapping.customerId, 0);
        QCOMPARE(mapping.usage.value(u"api_calls"_s), 6);
        QCOMPARE(CsvMapping::fromJson(mapping.toJson(header), header), mapping);
        // A profile follows the columns by name when they move.
        QStringList moved = header;
        moved.move(0, 3);
        QCOMPARE(CsvMapping::fromJson(mapping.toJson(header), moved).customerId, 3);

        auto rows = ImportSource::readCsv(csv, u',', mapping);
        QCOMPARE(rows.size(), 3);
        QVERIFY(rows.at(0).isValid());
        const api::ImportCustomerRequest &ann = *rows.at(0).request;
        QCOMPARE(ann.customerId, u"ann"_s);
        QCOMPARE(ann.processors.first().id, u"cus_1"_s);
        QCOMPARE(ann.billables.first().plan.planId, u"pro"_s);
        QCOMPARE(ann.billables.first().plan.balances.first().usage, api::Decimal::parse(u"12.5"_s));
        QCOMPARE(rows.at(0).line, 2);

        models::ImportRow &bob = rows[1];
        QVERIFY(!bob.isValid());
        QVERIFY(bob.cellErrors.contains(2));        // email
        QVERIFY(bob.cellErrors.contains(6));        // usage
        QVERIFY(rows.at(2).cellErrors.contains(0)); // customer id missing
        QVERIFY(!rows.at(2).isValid());

        // Fixed in place: the email and usage, then the status the decoder refuses.
        bob.cells[2] = u"bob@example.com"_s;
        bob.cells[6] = u"3"_s;
        ImportSource::revalidate(bob, mapping);
        QVERIFY(!bob.isValid());
        QCOMPARE(bob.cellErrors.keys(), QList<int>{5});
        // The column names the field: the cell says only what is wrong.
        QVERIFY2(bob.cellErrors.value(5).startsWith(u"must be one of \"active\""_s),
                 qPrintable(bob.cellErrors.value(5)));
        bob.cells[5] = u"Trialing"_s;
        ImportSource::revalidate(bob, mapping);
        QVERIFY2(bob.isValid(), qPrintable(bob.error + bob.cellErrors.value(5)));
        QCOMPARE(bob.request->billables.first().plan.status, api::PlanStatus::Trialing);
    }

    // An old system's plan names mapped to plan ids, kept in the profile;
    // one column feeding two fields (the email is also the customer id).
    void planValuesAndOneColumnForTwoFields()
    {
        const QString csv = u"mail,plan\n"
                            "ann@example.com,Pro Monthly (USD)\n"
                            "bob@example.com,starter\n"_s;
        const QStringList header = ImportSource::parseCsv(csv, u',').first();
        CsvMapping mapping;
        mapping.customerId = 0;
        mapping.email = 0;
        mapping.plan = 1;
        mapping.planValues.insert(u"Pro Monthly (USD)"_s, u"pro"_s);
        const auto rows = ImportSource::readCsv(csv, u',', mapping);
        QVERIFY(rows.at(0).isValid());
        QCOMPARE(rows.at(0).request->customerId, u"ann@example.com"_s);
        QCOMPARE(rows.at(0).request->customerData->email, std::optional(u"ann@example.com"_s));
        QCOMPARE(rows.at(0).request->billables.first().plan.planId, u"pro"_s);
        // A value not mapped is taken as the plan's id.
        QCOMPARE(rows.at(1).request->billables.first().plan.planId, u"starter"_s);
        // The profile keeps both, by column name.
        const CsvMapping again = CsvMapping::fromJson(mapping.toJson(header), header);
        QCOMPARE(again, mapping);
        QCOMPARE(again.planId(u"Pro Monthly (USD)"_s), u"pro"_s);
    }

    void jsonLinesAndArrays()
    {
        const QString lines = uR"({"customer_id":"ann","billables":[]}

{"customer_id":"bob","billables":[{"plan":{"plan_id":"pro","balances":[{"feature_id":"x","usage":-2}]}}]}
not json
)"_s;
        const auto rows = ImportSource::readJson(lines, ImportFormat::JsonLines);
        QCOMPARE(rows.size(), 3);
        QVERIFY(rows.at(0).isValid());
        QCOMPARE(rows.at(1).line, 3);
        QVERIFY(!rows.at(1).isValid());
        QCOMPARE(rows.at(1).error,
                 u"Billable 1, plan, balance 1: the usage must not be negative"_s);
        QCOMPARE(rows.at(2).line, 4);
        QVERIFY(rows.at(2).error.startsWith(u"not JSON"_s));

        const auto array =
            ImportSource::readJson(uR"([{"customer_id":"ann","billables":[]},{"billables":[]}])"_s,
                                   ImportFormat::JsonArray);
        QCOMPARE(array.size(), 2);
        QVERIFY(array.at(0).isValid());
        QCOMPARE(array.at(1).error, u"The customer id is required"_s);
        QCOMPARE(ImportSource::readJson(u"{"_s, ImportFormat::JsonArray).size(), 1);
    }

    void theSampleFilesImportIntoTheDemo()
    {
        // docs/samples: the three formats say the same, and the demo accepts them (dry run).
        QList<QList<models::ImportRow>> formats;
        for (const char *name : {"customers.jsonl", "customers.json", "customers.csv"}) {
            QFile file(QStringLiteral(MD_SAMPLES_DIR "/") + QLatin1StringView(name));
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray data = file.readAll();
            const QString text = ImportSource::decode(data);
            const ImportFormat format = ImportSource::detect(file.fileName(), data);
            formats.append(format == ImportFormat::Csv
                               ? ImportSource::readCsv(
                                     text, ImportSource::guessSeparator(text),
                                     CsvMapping::guess(ImportSource::parseCsv(text, u',').first()))
                               : ImportSource::readJson(text, format));
        }
        QTemporaryDir dir;
        embedded::EngineBackend engine(dir.filePath(u"demo.db"_s));
        auto prepared = engine.prepare(true);
        prepared.waitForFinished();
        QVERIFY(prepared.result().ok());
        for (const auto &rows : std::as_const(formats)) {
            QCOMPARE(rows.size(), 3);
            for (qsizetype i = 0; i < rows.size(); ++i) {
                QVERIFY2(rows.at(i).isValid(), qPrintable(rows.at(i).error));
                QCOMPARE(rows.at(i).request->customerId, formats.first().at(i).request->customerId);
                api::ImportCustomerRequest request = *rows.at(i).request;
                request.dryRun = true;
                auto preview = engine.importCustomer(request);
                preview.waitForFinished();
                QVERIFY2(preview.result().ok(),
                         qPrintable(preview.result().ok() ? QString()
                                                          : preview.result().error().message));
                QCOMPARE(preview.result().value().flashed.size(), 1);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestImportSource)
#include "tst_importsource.moc"
