// A reply's answer handed to a model on the GUI thread, only while the model
// lives. QFuture::then(context, f) in Qt 6.4 posts to `context` from the
// thread that finished the future even while `context` is being destroyed
// on its own thread (Qt 6.6 guards it): a page whose model went with a
// reply in flight crashed there (tst_consolepages, filterBoxesFitTheirChoices).
// Here the answer is posted to the application, which outlives every reply,
// and `handle` runs only if `receiver` still exists, checked on the GUI
// thread, where receivers are destroyed.
#pragma once

#include <QCoreApplication>
#include <QFuture>
#include <QFutureWatcher>
#include <QPointer>

#include <utility>

namespace md::models {

template <typename T, typename F> void whenDone(QFuture<T> future, QObject *receiver, F &&handle)
{
    future.then(QCoreApplication::instance(),
                [guard = QPointer<QObject>(receiver),
                 handle = std::forward<F>(handle)](const T &answer) mutable {
                    if (guard)
                        handle(answer);
                });
}

// The same through a QFutureWatcher owned by `receiver`: its finished
// signal, which setFuture() sends for a future already finished too. The
// Charges tab and the Revenue page lost about one answer in five to
// then() when a future finished while the continuation was being attached
// (three test processes at once on two cores; Qt 6.4).
template <typename T, typename F>
void whenFinished(QFuture<T> future, QObject *receiver, F &&handle)
{
    auto *watcher = new QFutureWatcher<T>(receiver);
    QObject::connect(watcher, &QFutureWatcherBase::finished, receiver,
                     [watcher, handle = std::forward<F>(handle)]() mutable {
                         watcher->deleteLater();
                         handle(watcher->result());
                     });
    watcher->setFuture(future);
}

} // namespace md::models
