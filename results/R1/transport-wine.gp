# transport-wine.gp - written by akm from the CSV files in this folder.
# Re-render transport-wine.png and transport-wine.svg from inside this folder:  gnuplot transport-wine.gp
set datafile separator ','
set datafile missing NaN
set title 'R1 wine: β − β̃_i = ηλ̂_i per Σ̂ eigen-direction (η = 0.5)'
set xlabel 'direction i (Σ̂ eigenvalues descending)'
set ylabel 'β − β̃_i'
set logscale y
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'transport-wine.png'
plot 'data_wine.csv' every ::1 using 1:6:7 with yerrorbars pt 7 ps 0.8 title 'measured (AK buffer)', \
     'data_wine.csv' every ::1 using 1:4 with lines lw 2 title 'exact finite-sample ηλ̂_i', \
     'data_wine.csv' every ::1 using 1:5 with lines lw 2 title 'Gaussian closed form ηλ̂^G_i'
set terminal svg size 900,600 dynamic enhanced
set output 'transport-wine.svg'
replot
unset output
