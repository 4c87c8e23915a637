"""Shared matplotlib style for report charts.

Usage:
    from house_style import apply_house_style, OKABE_ITO
    apply_house_style()

Only touches rcParams; call it once before creating figures.
"""

from cycler import cycler
import matplotlib as mpl

# Okabe & Ito (2008) colorblind-safe palette, black moved to the end
# because it is the least useful as a series color.
OKABE_ITO = [
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#F0E442",  # yellow (weak on white; avoid for thin lines)
    "#000000",  # black
]


def apply_house_style(font_size: float = 11.0) -> None:
    mpl.rcParams.update(
        {
            "axes.prop_cycle": cycler(color=OKABE_ITO),
            "font.size": font_size,
            "axes.titlesize": font_size + 2,
            "axes.titleweight": "semibold",
            "axes.titlelocation": "left",
            "axes.labelsize": font_size,
            "xtick.labelsize": font_size - 1,
            "ytick.labelsize": font_size - 1,
            "legend.fontsize": font_size - 1,
            "legend.frameon": False,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.grid": True,
            "axes.grid.axis": "y",
            "grid.color": "0.9",
            "grid.linewidth": 0.8,
            "lines.linewidth": 2.0,
            "savefig.dpi": 200,
            "savefig.facecolor": "white",
            # Keep text as text in SVG so it stays searchable and editable.
            "svg.fonttype": "none",
            # Embed TrueType (Type 42) fonts in PDF; some print shops reject Type 3.
            "pdf.fonttype": 42,
        }
    )


if __name__ == "__main__":
    # Quick visual check: python house_style.py && open house_style_demo.png
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    apply_house_style()
    x = np.linspace(0, 10, 100)
    fig, ax = plt.subplots(figsize=(8, 4.5), layout="constrained")
    for i, _ in enumerate(OKABE_ITO[:6]):
        ax.plot(x, np.sin(x + i * 0.5) + i * 0.3, label=f"series {i + 1}")
    ax.set_title("House style demo")
    ax.set_xlabel("x (units)")
    ax.set_ylabel("y (units)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.savefig("house_style_demo.png")
    plt.close(fig)
    print("wrote house_style_demo.png")
