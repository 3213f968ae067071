// A Stripe for tests (docs/processors.md, "Tests"): stripe-stateful-mock,
// the third-party stateful Stripe server pinned in tests/compat/package.json
// (installed by the compat_npm_ci fixture), started on a loopback port for
// the test's process and seeded through the official stripe client
// (tests/compat/stripe-seed.mjs). It serves test-mode keys only
// (sk_test_…); any such key reaches the accounts seeded.
#pragma once

#include <QJsonArray>
#include <QProcess>
#include <QStringList>
#include <QUrl>

namespace md::test {

class StripeMock final
{
public:
    StripeMock() = default;
    ~StripeMock();
    Q_DISABLE_COPY_MOVE(StripeMock)

    // Starts it and waits until it listens; the problem, or empty.
    QString start();
    QUrl url() const { return m_url; }
    // Connected accounts the platform's key reaches; the problem, or empty.
    QString seedAccounts(const QStringList &ids);
    // Steps of tests/compat/stripe-seed.mjs (catalogue, customers,
    // subscriptions, quantity changes), run in order; the problem, or empty.
    QString seed(const QJsonArray &steps);

    // Connects `secret` as organization `slug`'s test key in the database
    // at `location` (as `processors connect` stores it); the problem, or empty.
    static QString connectTestKey(const QString &location, const QString &slug,
                                  const QString &secret);

    // One for the whole test process, started on first use: the problem in
    // `problem`, or null.
    static StripeMock *shared(QString *problem);

private:
    QString runSeed(const QStringList &arguments);

    QProcess m_process;
    QUrl m_url;
};

} // namespace md::test
