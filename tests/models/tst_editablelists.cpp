// "Undo last change" on the admin lists: nothing to undo is refused in
// words; after a save, undo writes back what the save replaced, once: a
// version number too, unless the save added that version beside the one
// customers are on, which Undo says it cannot take away.
#include "models/admin/ProductListModel.h"
#include "tests/support/StubBackend.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace md;

namespace {

class SavingBackend final : public test::StubBackend
{
public:
    QList<std::pair<QString, api::UpdateProductRequest>> saves;
    QList<api::Product> stored; // what listProducts answers: every version

    backend::Reply<api::Page<api::Product>> listProducts() override
    {
        api::Page<api::Product> page;
        page.list = stored;
        return QtFuture::makeReadyFuture(api::Result(page));
    }

    backend::Reply<api::Product> updateProduct(const QString &productId,
                                               const api::UpdateProductRequest &request) override
    {
        saves.append({productId, request});
        api::Product answer;
        answer.id = productId;
        return QtFuture::makeReadyFuture(api::Result(answer));
    }
};

template <typename T> api::Result<T> await(QFuture<api::Result<T>> future)
{
    while (!future.isFinished())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    return future.result();
}

} // namespace

class TestEditableLists final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void undoWritesBackWhatTheSaveReplacedOnce()
    {
        SavingBackend backend;
        models::ProductListModel products(&backend);
        QAbstractItemModelTester tester(&products);

        const auto nothing = await(products.undoLast());
        QVERIFY(!nothing);
        QVERIFY(!nothing.error().message.isEmpty());
        QVERIFY(backend.saves.isEmpty());

        api::Product before;
        before.id = u"pro"_s;
        before.name = u"Pro"_s;
        api::Product after = before;
        after.name = u"Pro plus"_s;
        products.remember(before, after);
        const auto undone = await(products.undoLast());
        QVERIFY(undone);
        QCOMPARE(undone.value(), u"pro"_s);
        QCOMPARE(backend.saves.size(), 1);
        QCOMPARE(backend.saves.first().first, u"pro"_s);
        QCOMPARE(backend.saves.first().second.name, std::optional(u"Pro"_s));

        QVERIFY(!await(products.undoLast())); // undone once, not twice
        QCOMPARE(backend.saves.size(), 1);
    }

    // Pro renumbered from 6 to 7 (its only version): Undo puts 6 back.
    void undoPutsARenumberedVersionBack()
    {
        SavingBackend backend;
        models::ProductListModel products(&backend);
        api::Product before;
        before.id = u"pro"_s;
        before.version = 6;
        api::Product after = before;
        after.version = 7;
        backend.stored = {after};
        products.remember(before, after);
        const auto undone = await(products.undoLast());
        QVERIFY2(undone, undone ? "" : qPrintable(undone.error().message));
        QCOMPARE(backend.saves.size(), 1);
        QCOMPARE(backend.saves.first().second.version, std::optional<qint64>(6));
    }

    // Changed items customers were on made version 2 beside version 1: Undo
    // says why it cannot take version 2 away, and writes nothing.
    void undoSaysWhyAnAddedVersionStays()
    {
        SavingBackend backend;
        models::ProductListModel products(&backend);
        api::Product before;
        before.id = u"basic"_s;
        api::ProductItem calls;
        calls.featureId = u"calls"_s;
        before.items = {calls};
        api::Product after = before;
        after.version = 2;
        after.items.first().includedUsage = api::Decimal::fromInteger(500);
        backend.stored = {before, after};
        products.remember(before, after);
        const auto undone = await(products.undoLast());
        QVERIFY(!undone);
        QCOMPARE(undone.error().message,
                 u"saving made version 2 of basic beside version 1, which customers are on, and "
                 "a version cannot be taken away. Edit basic to change version 2."_s);
        QVERIFY(backend.saves.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestEditableLists)
#include "tst_editablelists.moc"
