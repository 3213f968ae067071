// "Undo last change" on the admin lists: nothing to undo is refused in
// words; after a save, undo writes back what the save replaced, once.
#include "models/ProductListModel.h"
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
};

QTEST_GUILESS_MAIN(TestEditableLists)
#include "tst_editablelists.moc"
