// Renders the application icon (an SVG) to the PNG sizes desktops look for,
// at build time: render_icon SVG OUTDIR writes OUTDIR/<n>x<n>/meterdesk.png.
#include <QDir>
#include <QGuiApplication>
#include <QImage>
#include <QImageReader>
#include <QTextStream>

int main(int argc, char *argv[])
{
    QGuiApplication app(argc, argv); // the SVG image plugin needs one
    const QStringList args = QCoreApplication::arguments();
    if (args.size() != 3) {
        QTextStream(stderr) << "usage: render_icon SVG OUTDIR\n";
        return 2;
    }
    for (const int size : {16, 22, 24, 32, 48, 64, 128, 256, 512}) {
        QImageReader reader(args.at(1));
        reader.setScaledSize(QSize(size, size));
        const QImage image = reader.read();
        const QString dir = QStringLiteral("%1/%2x%2").arg(args.at(2)).arg(size);
        if (image.isNull() || !QDir().mkpath(dir) ||
            !image.save(dir + QStringLiteral("/org.meterdesk.Meterdesk.png"))) {
            QTextStream(stderr) << "render_icon: cannot render " << args.at(1) << " at " << size
                                << ": " << reader.errorString() << '\n';
            return 1;
        }
    }
    return 0;
}
