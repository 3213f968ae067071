#include "models/connection/KeyStore.h"

#include <QMutex>
#include <QPromise>

#include <qt6keychain/keychain.h>

#include <atomic>

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

const QString Service = u"Meterdesk"_s;
std::atomic<KeyStore::Keychain> s_state{KeyStore::Keychain::Unknown};

KeyStore::Keychain reached(bool yes)
{
    return yes ? KeyStore::Keychain::Reached : KeyStore::Keychain::Absent;
}
std::atomic<bool> s_sessionOnly{false};
QMutex s_mutex;
QHash<QString, QString> s_session; // keys this session could not store

} // namespace

QFuture<QString> KeyStore::read(const QString &server)
{
    {
        const QMutexLocker lock(&s_mutex);
        if (s_session.contains(server) || s_sessionOnly)
            return QtFuture::makeReadyFuture(s_session.value(server));
    }
    auto promise = std::make_shared<QPromise<QString>>();
    promise->start();
    auto *job = new QKeychain::ReadPasswordJob(Service);
    job->setKey(server);
    QObject::connect(job, &QKeychain::Job::finished, job, [promise, server](QKeychain::Job *done) {
        const auto *readJob = static_cast<QKeychain::ReadPasswordJob *>(done);
        s_state = reached(done->error() == QKeychain::NoError ||
                          done->error() == QKeychain::EntryNotFound);
        promise->addResult(done->error() == QKeychain::NoError ? readJob->textData() : QString());
        promise->finish();
    });
    job->start();
    return promise->future();
}

QFuture<bool> KeyStore::write(const QString &server, const QString &key)
{
    if (s_sessionOnly) {
        const QMutexLocker lock(&s_mutex);
        s_session.insert(server, key);
        return QtFuture::makeReadyFuture(false);
    }
    auto promise = std::make_shared<QPromise<bool>>();
    promise->start();
    auto *job = new QKeychain::WritePasswordJob(Service);
    job->setKey(server);
    job->setTextData(key);
    QObject::connect(job, &QKeychain::Job::finished, job,
                     [promise, server, key](QKeychain::Job *done) {
                         const bool stored = done->error() == QKeychain::NoError;
                         s_state = reached(stored);
                         if (!stored) {
                             const QMutexLocker lock(&s_mutex);
                             s_session.insert(server, key);
                         }
                         promise->addResult(stored);
                         promise->finish();
                     });
    job->start();
    return promise->future();
}

void KeyStore::forget(const QString &server)
{
    {
        const QMutexLocker lock(&s_mutex);
        s_session.remove(server);
    }
    if (s_sessionOnly)
        return;
    auto *job = new QKeychain::DeletePasswordJob(Service);
    job->setKey(server);
    job->start();
}

KeyStore::Keychain KeyStore::state()
{
    return s_sessionOnly ? Keychain::Absent : s_state.load();
}

QFuture<KeyStore::Keychain> KeyStore::probe()
{
    if (state() != Keychain::Unknown)
        return QtFuture::makeReadyFuture(state());
    return read(u"meterdesk-keychain-probe"_s).then([](const QString &) { return state(); });
}

void KeyStore::useSessionOnly(bool sessionOnly)
{
    s_sessionOnly = sessionOnly;
}

} // namespace md::models
