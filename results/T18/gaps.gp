# gaps.gp - written by akm from the CSV files in this folder.
# Re-render gaps.png and gaps.svg from inside this folder:  gnuplot gaps.gp
set datafile separator ','
set datafile missing NaN
set title 'T18 AK − base gaps (mean ± sd over seeds); per task: (SGD pair, AK-AdamW − AdamW, AK-AdamW − AdamW(tab:hps)) × (cos(M,g), e_t, cos(Mx̂,δ), r)'
set xlabel 'row of data_gaps.csv'
set ylabel 'gap'
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'gaps.png'
plot 'data_gaps.csv' every ::1 using 3:5:6 with yerrorbars pt 7 ps 0.8 title 'AK − base', \
     0 notitle lc rgb 'gray40'
set terminal svg size 900,600 dynamic enhanced
set output 'gaps.svg'
replot
unset output
