// AuditLogModel: entries newest first with their actor in words, the fields
// that changed between before and after, CSV that keeps both sides whole.
#include "models/operator/AuditLogModel.h"
#include "tests/models/SmallBackend.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>

using namespace md;
using namespace Qt::StringLiterals;
using models::AuditLogModel;

namespace {

api::JsonValue json(const char *text)
{
    return api::JsonValue::parse(QByteArrayView(text), u"test"_s, 16).value();
}

} // namespace

class TestAuditLogModel final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<embedded::EngineBackend> m_backend;

private Q_SLOTS:
    void initTestCase()
    {
        m_backend = test::smallBackend(m_dir.filePath(u"audit.db"_s));
        QVERIFY(m_backend);
        api::UpdateProductRequest rename;
        rename.name = u"Pro (2027)"_s;
        auto renamed = m_backend->updateProduct(u"pro"_s, rename);
        renamed.waitForFinished();
        QVERIFY2(renamed.result().ok(),
                 qPrintable(renamed.result().ok() ? QString() : renamed.result().error().message));
    }

    void listsNewestFirstAndFilters()
    {
        AuditLogModel model(m_backend.get());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.refresh();
        QVERIFY(test::waitIdle(model));
        QVERIFY(model.rowCount() >= 2); // the load, then the rename
        QCOMPARE(model.entry(0).action, u"product.update"_s);
        // The console on its own workspace acts as the operating-system user.
        QVERIFY(
            model.index(0, AuditLogModel::ActorColumn).data().toString().endsWith(u"(console)"_s));
        QCOMPARE(model.index(0, AuditLogModel::ResourceColumn).data().toString(), u"product pro"_s);
        QCOMPARE(model.index(0, AuditLogModel::ChangedColumn).data().toString(), u"name"_s);

        api::AuditLogRequest loads;
        loads.resourceType = u"organization"_s;
        model.setFilter(loads);
        QVERIFY(test::waitIdle(model));
        QVERIFY(model.rowCount() > 0);
        for (int row = 0; row < model.rowCount(); ++row)
            QCOMPARE(model.entry(row).action, u"workspace.load"_s);
    }

    void changedFieldsCompareTheTopLevel()
    {
        api::AuditEntry entry;
        entry.before = json(R"({"name":"A","items":[1,2],"version":1})");
        entry.after = json(R"({"name":"A","items":[1,3],"version":2,"group":"g"})");
        QCOMPARE(AuditLogModel::changedFields(entry),
                 (QStringList{u"items"_s, u"version"_s, u"group"_s}));
        entry.before = api::JsonValue::null(); // new: every field is a change
        QCOMPARE(AuditLogModel::changedFields(entry).size(), 4);
        QCOMPARE(AuditLogModel::sideText(entry.before), u"(none)"_s);
        QCOMPARE(AuditLogModel::fieldDepth(entry), 1);
        // A reward's fields, inside its wrapper.
        entry.before = json(R"({"coupon":{"id":"c","name":"A","value":20}})");
        entry.after = json(R"({"coupon":{"id":"c","name":"B","value":20}})");
        QCOMPARE(AuditLogModel::changedFields(entry), QStringList{u"name"_s});
        QCOMPARE(AuditLogModel::fieldDepth(entry), 2);
    }

    void csvKeepsBothSidesWhole()
    {
        api::AuditEntry entry;
        entry.id = u"audit_7"_s;
        entry.at = 0;
        entry.actor = {u"key"_s, u"key_3"_s, u"ci, nightly"_s};
        entry.action = u"reward.update"_s;
        entry.resourceType = u"reward"_s;
        entry.resourceId = u"bonus"_s;
        entry.after = json("{\"name\":\"Bonus, \\\"new\\\"\"}");
        QCOMPARE(AuditLogModel::csvLine(entry),
                 u"audit_7,1970-01-01T00:00:00.000Z,key,key_3,\"ci, nightly\",reward.update,"
                 u"reward,bonus,name,,\"{\"\"name\"\":\"\"Bonus, \\\"\"new\\\"\"\"\"}\"\r\n"_s);
    }
};

QTEST_GUILESS_MAIN(TestAuditLogModel)
#include "tst_auditlogmodel.moc"
