# cosine-vs-kappa.gp - written by akm from the CSV files in this folder.
# Re-render cosine-vs-kappa.png and cosine-vs-kappa.svg from inside this folder:  gnuplot cosine-vs-kappa.gp
set datafile separator ','
set datafile missing NaN
set title 'T12 cos(M*, Ĝ) ≥ 2√κ/(1+κ), κ = cond(μI+Σ̂) ≤ 1+η/(1−β)'
set xlabel 'κ = (μ+λ̂_{max})/(μ+λ̂_{min})'
set ylabel 'cos(M*, Ĝ)'
set logscale x
set grid
set key outside top left horizontal
set yrange [0:1.05]
set key bottom left
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'cosine-vs-kappa.png'
plot 'data_instances.csv' every ::1 using 10:11 with points pt 7 ps 0.8 title 'instances', \
     2*sqrt(x)/(1+x) title 'Kantorovich floor 2√κ/(1+κ)' lw 2
set terminal svg size 900,600 dynamic enhanced
set output 'cosine-vs-kappa.svg'
replot
unset output
