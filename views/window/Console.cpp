#include "views/window/Console.h"

#include "models/connection/KeyStore.h"
#include "models/connection/ServerProbe.h"
#include "views/connection/ConnectionDialog.h"
#include "views/window/MainWindow.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace md::views {

using models::Connection;

namespace {

// An empty workspace: offer the demo rather than show empty pages.
void offerDemo(
    MainWindow *window,
    const std::function<QFuture<api::Result<models::OpenedBackend::Workspace>>()> &loadDemo)
{
    auto *ask = new QMessageBox(
        QMessageBox::Question, Console::tr("Empty workspace"),
        Console::tr("This workspace is empty. Load the demo workspace to look around?"),
        QMessageBox::Yes | QMessageBox::No, window);
    ask->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(ask, &QMessageBox::finished, window, [window, loadDemo](int answer) {
        if (answer != QMessageBox::Yes) {
            window->connectionReady();
            return;
        }
        loadDemo().then(window,
                        [window](const api::Result<models::OpenedBackend::Workspace> &loaded) {
                            if (!loaded)
                                window->connectionFailed(loaded.error().message);
                            else
                                window->connectionReady();
                        });
    });
    ask->open();
}

} // namespace

Console::Console() = default;

Console::~Console()
{
    delete m_window;
}

Connection Console::startupConnection(const QString &defaultFile)
{
    const QList<Connection> recent = models::RecentConnections::load();
    return recent.isEmpty() ? Connection{Connection::Kind::Sqlite, defaultFile} : recent.first();
}

void Console::open(const Connection &connection, bool loadDemoIfEmpty)
{
    if (connection.kind != Connection::Kind::Remote) {
        openWithKey(connection, QString(), loadDemoIfEmpty);
        return;
    }
    models::KeyStore::read(connection.location).then(this, [this, connection](const QString &key) {
        if (key.isEmpty()) {
            askForConnection(connection); // no saved key: ask, with the server filled in
            return;
        }
        openWithKey(connection, key, false);
    });
}

void Console::chooseConnection()
{
    askForConnection(std::nullopt);
}

void Console::askForConnection(const std::optional<Connection> &prefill)
{
    auto *dialog = new ConnectionDialog(m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (prefill)
        dialog->setConnection(*prefill);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const Connection chosen = dialog->connection();
        if (chosen.kind == Connection::Kind::Remote)
            models::KeyStore::write(chosen.location, dialog->apiKey());
        openWithKey(chosen, dialog->apiKey(), false);
    });
    dialog->open();
}

void Console::loadCatalogue(const QString &path)
{
    if (!m_loadCatalogue)
        return;
    m_loadCatalogue(path).then(m_window.get(), [window = m_window, path](
                                                   const api::Result<api::CatalogueInfo> &loaded) {
        if (!window)
            return;
        if (!loaded) {
            QMessageBox::warning(window, tr("Price catalogue not loaded"),
                                 tr("%1 was not loaded; the catalogue in use stays.\n\n%2")
                                     .arg(QDir::toNativeSeparators(path), loaded.error().message));
            return;
        }
        window->showStatus(tr("Prices from %1: %Ln models", "", int(loaded.value().models))
                               .arg(QFileInfo(path).fileName()));
    });
}

void Console::openWithKey(const Connection &connection, const QString &apiKey, bool loadDemoIfEmpty)
{
    models::OpenedBackend opened = models::openBackend(connection, apiKey, loadDemoIfEmpty);
    auto *window = new MainWindow(opened.backend.get());
    connect(window, &MainWindow::connectRequested, this, &Console::chooseConnection);
    window->setCatalogueLoadable(bool(opened.loadCatalogue));
    connect(window, &MainWindow::catalogueRequested, this, [this, window] {
        const QString path =
            QFileDialog::getOpenFileName(window, tr("Load a price catalogue"), QString(),
                                         tr("models.dev catalogue (*.json);;All files (*)"));
        if (!path.isEmpty())
            loadCatalogue(path);
    });
    window->show();
    // The old window goes only now, so closing it never quits the application.
    if (m_window) {
        m_window->close();
        m_window->deleteLater();
    }
    std::unique_ptr<backend::BillingBackend> previous = std::move(m_backend);
    m_backend = std::move(opened.backend);
    m_loadCatalogue = std::move(opened.loadCatalogue);
    m_window = window;
    if (m_loadCatalogue && !m_catalogueFile.isEmpty())
        loadCatalogue(m_catalogueFile);
    models::RecentConnections::remember(connection);
    opened.ready.then(window, [window, loadDemo = opened.loadDemo](
                                  const api::Result<models::OpenedBackend::Workspace> &ready) {
        if (!ready) {
            window->connectionFailed(models::ServerProbe::said(ready.error()));
            return;
        }
        if (ready.value() == models::OpenedBackend::Workspace::Empty && loadDemo) {
            offerDemo(window, loadDemo);
            return;
        }
        window->connectionReady();
    });
    // The previous backend outlives its window's pending replies by one turn of the loop.
    if (previous)
        QMetaObject::invokeMethod(
            this, [gone = std::shared_ptr<backend::BillingBackend>(std::move(previous))] {},
            Qt::QueuedConnection);
}

} // namespace md::views
